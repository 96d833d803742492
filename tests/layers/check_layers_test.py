#!/usr/bin/env python3
"""scripts/check-layers on small trees: it passes one that keeps the layers and fails, naming
the file and line, each way of breaking them."""

import pathlib
import subprocess
import sys
import tempfile
import unittest

CHECKER = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "check-layers"

# low <- middle <- high, and extra is part of middle (as memory/ is part of tools).
LAYER_MAP = """# area: directories : areas it links
low: low :
middle: extra middle : low
high: high : middle
"""


class CheckLayersTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = pathlib.Path(self.tmp.name)
        self.write("layers.txt", LAYER_MAP)
        self.write("src/low/text.hpp", "#pragma once\n#include <string>\n")
        self.write("src/middle/tool.hpp", '#pragma once\n#include "low/text.hpp"\n')
        self.write("src/extra/memory.cpp", '#include "middle/tool.hpp"\n#include "low/text.hpp"\n')
        self.write("src/high/loop.cpp",
                   '#include "middle/tool.hpp"\n#include "low/text.hpp"\n#include "hermes/x.hpp"\n')
        self.write("include/hermes/x.hpp", '#pragma once\n#include "hermes/y.hpp"\n')

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, relative, text):
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def run_checker(self):
        result = subprocess.run(
            [sys.executable, str(CHECKER), str(self.root / "layers.txt"), str(self.root)],
            capture_output=True, text=True, check=False)
        return result.returncode, result.stdout + result.stderr

    def test_a_tree_that_includes_only_downward_passes(self):
        code, output = self.run_checker()
        self.assertEqual(code, 0, output)

    def test_an_upward_include_fails_naming_file_line_and_areas(self):
        self.write("src/low/bad.cpp", '#include <vector>\n\n#include "high/loop.hpp"\n')
        code, output = self.run_checker()
        self.assertEqual(code, 1, output)
        self.assertIn('src/low/bad.cpp:3: includes "high/loop.hpp" of area high, above low',
                      output)

    def test_a_sibling_directory_of_a_higher_area_counts_as_that_area(self):
        self.write("src/low/bad.hpp", '#include "extra/memory.hpp"\n')
        code, output = self.run_checker()
        self.assertEqual(code, 1, output)
        self.assertIn("of area middle, above low", output)

    def test_an_include_two_areas_up_fails_too(self):
        self.write("src/middle/bad.cpp", '#include "high/loop.hpp"\n')
        code, output = self.run_checker()
        self.assertEqual(code, 1, output)
        self.assertIn("src/middle/bad.cpp:1:", output)

    def test_a_relative_include_into_another_directory_fails(self):
        self.write("src/low/bad.cpp", '#include "../high/loop.hpp"\n')
        code, output = self.run_checker()
        self.assertEqual(code, 1, output)
        self.assertIn("src/low/bad.cpp:1:", output)

    def test_a_public_header_including_a_private_one_fails(self):
        self.write("include/hermes/bad.hpp", '#pragma once\n#include "low/text.hpp"\n')
        code, output = self.run_checker()
        self.assertEqual(code, 1, output)
        self.assertIn("include/hermes/bad.hpp:2:", output)

    def test_a_directory_of_no_area_fails(self):
        self.write("src/stray/thing.cpp", "int x;\n")
        code, output = self.run_checker()
        self.assertEqual(code, 1, output)
        self.assertIn("src/stray: no area", output)

    def test_areas_linked_in_a_cycle_fail(self):
        self.write("layers.txt", LAYER_MAP.replace("low: low :", "low: low : high"))
        code, output = self.run_checker()
        self.assertEqual(code, 1, output)
        self.assertIn("cycle", output)

    def test_a_malformed_map_is_an_error_not_a_pass(self):
        self.write("layers.txt", "low low\n")
        code, output = self.run_checker()
        self.assertEqual(code, 2, output)
        self.assertIn("layers.txt:1:", output)


if __name__ == "__main__":
    unittest.main()
