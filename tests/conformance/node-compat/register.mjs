// The conformance suite imports fs.globSync (Node 22+) for a subcommand the tests do not
// use; on older Node it would not load at all. Loaded with `node --import`, this hands
// the suite an fs module that has the name.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
