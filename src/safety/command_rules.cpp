// The rule tables. Patterns see the normalised, lower-cased command (flags keep their
// case) and are compiled case-insensitive with `.` matching newlines.
#include "safety/command_rules.hpp"

#include <string>

namespace hermes::internal {
namespace {

using S = std::string;

// Command position: start of text, a newline (separators are turned into newlines before
// matching), a backtick or $(, then optional sudo/env/exec/nohup/setsid/time wrappers.
const S kCmdPos =
    R"~((?:^|[\n`]|\$\()\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\w+=\S*\s+)*)?(?:(?:exec|nohup|setsid|time)\s+)*\s*)~";

// Executable position for the disk rules: also through scheduling and buffering wrappers,
// multi-call binaries and path-qualified names. A wrapper's query options (command -v,
// chrt -p) do not run the program and are not peeled.
const S kExecPos =
    kCmdPos +
    R"~((?:(?:command|builtin)\s+(?:-(?!\S*v)\S+\s+)*|(?:chrt|taskset|ionice)\s+(?:-(?!p\b|-pid\b|-pgid\b|-uid\b)\S+\s+|\d+\s+)*|(?:nice|stdbuf)\s+(?:-\S+\s+|\d+\s+)*)*(?:(?:[\w.+-]*/)*(?:busybox|toybox)\s+)?(?:[\w.+-]*/)*)~";

// A raw block device (Linux disks, md/dm/loop/nbd, macOS disks, udev names), never part
// of a longer path such as ~/dev/sdk/x.
const S kBlockDevice =
    R"~((?<![\w.~-])/dev/(?:(?:sd|hd|vd|xvd|nvme|mmcblk|md|dm-|loop|nbd)[a-z0-9]*|r?disk[0-9]+[a-z0-9]*|mapper/[^\s;&|<>()"']+|disk/by-(?:id|uuid|path|label|partuuid|partlabel)/[^\s;&|<>()"']+))~";

// /etc, and macOS's /private/etc (and friends) that /etc points to.
const S kSystemConfig = R"~((?:/etc/|/private/(?:etc|var|tmp|home)/))~";
const S kHomeRef = R"~((?:~|\$home|\$\{home\}))~";
const S kSsh = kHomeRef + R"~(/\.ssh(?:/|$))~";
const S kHermesDir =
    R"~((?:~/\.hermes/|(?:\$home|\$\{home\})/\.hermes/|(?:\$hermes_home|\$\{hermes_home\})/))~";
const S kHermesEnv = kHermesDir + R"~(\.env\b)~";
// The hermes config is the security policy itself (approval mode, allowlist).
const S kHermesConfig = kHermesDir + R"~(config\.yaml\b)~";
const S kShellRc = kHomeRef + R"~(/\.(?:bashrc|zshrc|profile|bash_profile|zprofile)\b)~";
const S kCredentialFile = kHomeRef + R"~(/\.(?:netrc|pgpass|npmrc|pypirc)\b)~";
const S kProjectEnv = R"~((?:(?:/|\.{1,2}/)?(?:[^\s/"'`]+/)*\.env(?:\.[^/\s"'`]+)*))~";
const S kProjectConfig = R"~((?:(?:/|\.{1,2}/)?(?:[^\s/"'`]+/)*config\.yaml))~";

const S kSensitiveTarget = "(?:" + kSystemConfig + "|" + kBlockDevice + "|" + kSsh + "|" +
                           kHermesEnv + "|" + kHermesConfig + "|" + kShellRc + "|" +
                           kCredentialFile + ")";
const S kUserSensitive = "(?:" + kSsh + "|" + kShellRc + "|" + kCredentialFile + ")";
const S kProjectSensitive = "(?:" + kProjectEnv + "|" + kProjectConfig + ")";
const S kHermesSecret = "(?:" + kHermesConfig + "|" + kHermesEnv + ")";

// For cp/mv/install the sensitive path counts only as the last argument (the destination).
const S kCommandTail = R"~((?:\s*(?:&&|\|\||;).*)?$)~";
// For > and tee the path is always written; it only has to end as a shell word.
const S kWordEnd = R"~((?=[\s;&|<>"']|$))~";
// Global flags before a subcommand, each with at most one value that is not a flag.
const S kGlobalFlags = R"~((?:-\S+(?:\s+(?!-\S)\S+)?\s+)*)~";
const S kContainerFlags = R"~((?:-\S+(?:\s(?!-\S)\S+)?\s+)*)~";
const S kPackageOptions = R"~((?:-\S+(?:\s+[^-\s]\S*)?\s+)*)~";
const S kShells = "(?:bash|sh|zsh|ksh|dash)";

const S kRmPrefix = kCmdPos + R"~(rm\s+(?:-\S*\s+)*)~";

// An rm operand: quoted whole, or bare and followed by the end of the word.
S rm_operand(const S& alternatives) {
  return "(?:[\"'](?:" + alternatives + ")[\"']|(?:" + alternatives + R"~()(?:\s|$|[)`;|&])))~";
}

const S kRawDeviceWipe =
    kExecPos +
    R"~((?:wipefs\b(?![^;|&\n]*\s(?:-[a-z]*n[a-z]*|--no-act)\b)(?=[^;|&\n]*\s(?:-[a-z]*a[a-z]*|--all)\b)|sgdisk\b(?=[^;|&\n]*\s(?:-z|--zap-all|-o|--clear)\b)|blkdiscard\b|shred\b)(?=[^;|&\n#]*)~" +
    kBlockDevice + ")";

const S kForkBomb = R"~(:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:)~";

CommandRule rule(const S& pattern, std::string_view description, bool quote_masked = false) {
  return {Regex::builtin(pattern, RegexOptions{true, false, true}), description, quote_masked};
}

std::vector<CommandRule> build_hardline() {
  std::vector<CommandRule> r;
  // Any root-anchored path that collapses to "/": /, //, /., /../.., with a trailing glob.
  r.push_back(rule(kRmPrefix + rm_operand(R"~(/(?:(?:\.\.?)?/)*(?:\.\.?)?\**|/ \*)~"),
                   "recursive delete of root filesystem"));
  r.push_back(
      rule(kRmPrefix + rm_operand(R"~(/(?:home|root|etc|usr|var|bin|sbin|boot|lib)(?:/\*)?)~"),
           "recursive delete of system directory"));
  r.push_back(rule(kRmPrefix + rm_operand(R"~((?:~|\$\{?home\}?)(?:/?|/\*)?)~"),
                   "recursive delete of home directory"));
  // mkswap and newfs write a file unless pointed at a device; diskutil only with a
  // destructive verb.
  r.push_back(rule(
      kExecPos +
          R"~((?:(?:mkfs(?:\.[a-z0-9]+)?|mke2fs)(?=\s|$|[;|&)])|(?:mkswap|newfs(?:_[a-z0-9]+)?)\b[^;|&\n#]*)~" +
          kBlockDevice +
          R"~(|diskutil\s+(?:[a-z]+\s+)?(?:erase(?:disk|volume)|zerodisk|randomdisk|secureerase|reformat|partitiondisk)\b))~",
      "format filesystem (mkfs)"));
  r.push_back(rule(kRawDeviceWipe, "wipe raw block device"));
  r.push_back(
      rule(kExecPos + R"~(dd\b[^\n]*\bof=["']?)~" + kBlockDevice, "dd to raw block device"));
  r.push_back(
      rule(R"~(>\s*["']?)~" + kBlockDevice + R"~(\b)~", "redirect to raw block device", true));
  r.push_back(rule(kForkBomb, "fork bomb", true));
  r.push_back(rule(kCmdPos + R"~(kill\s+(?:-\S+\s+)*-1\b)~", "kill all processes"));
  r.push_back(rule(kCmdPos + R"~((?:shutdown|reboot|halt|poweroff)\b)~", "system shutdown/reboot"));
  r.push_back(rule(kCmdPos + R"~(init\s+[06]\b)~", "init 0/6 (shutdown/reboot)"));
  r.push_back(rule(kCmdPos + R"~(systemctl\s+(?:poweroff|reboot|halt|kexec)\b)~",
                   "systemctl poweroff/reboot"));
  r.push_back(rule(kCmdPos + R"~(telinit\s+[06]\b)~", "telinit 0/6 (shutdown/reboot)"));
  return r;
}

void add_deletion_rules(std::vector<CommandRule>& r) {
  r.push_back(rule(R"~(\brm\s+(?:-\S*\s+)*/)~", "delete in root path"));
  r.push_back(rule(R"~(\brm\s+-\S*r)~", "recursive delete"));
  r.push_back(rule(R"~(\brm\s+--recursive\b)~", "recursive delete (long flag)"));
  // rm permutes its options: `rm build/ -rf`. The operands may not cross a separator, a
  // quote, or a lone `--` (after which -rf is a file name).
  r.push_back(rule(
      R"~(\brm\s+(?!--(?:\s|$))(?:(?!\s--(?:\s|$))[^\n"';|&])*\s(?:-[a-z]*r[a-z]*\b|--recursive\b))~",
      "recursive delete (flags after operands)"));
}

void add_windows_rules(std::vector<CommandRule>& r) {
  r.push_back(rule(R"~(\bcmd(?:\.exe)?\s+/(?:c|k)\s+.*\b(?:del|erase|rd|rmdir)\b)~",
                   "Windows cmd destructive delete"));
  r.push_back(rule(
      R"~(\b(?:powershell|pwsh)(?:\.exe)?\b(?:\s+-\S+)*\s+(?:-(?:command|c)\s+)?["']?(?:remove-item|rmdir|erase|del|rd|ri|rm)\b)~",
      "Windows PowerShell destructive delete"));
  r.push_back(rule(R"~(\b(?:powershell|pwsh)(?:\.exe)?\b.*\s-(?:encodedcommand|enc|e)\b)~",
                   "PowerShell encoded command execution"));
  r.push_back(rule(R"~(\bremove-item\b[^\n;|&]*\s-(?:recurse|force)\b)~",
                   "PowerShell destructive delete (Remove-Item)"));
  r.push_back(rule(R"~(\b(?:del|erase|rd|rmdir)\s+(?:/[a-z]\s+)*/[sq]\b)~",
                   "Windows destructive delete (recursive/quiet switch)"));
  r.push_back(rule(
      R"~(\b(?:iwr|invoke-webrequest|invoke-restmethod|irm|curl|wget)\b[^\n]*\|\s*(?:iex|invoke-expression)\b)~",
      "pipe remote content to PowerShell (iwr | iex)"));
  r.push_back(rule(
      R"~(\b(?:iex|invoke-expression)\s*\(\s*(?:iwr|invoke-webrequest|invoke-restmethod|irm)\b)~",
      "execute remote content via Invoke-Expression"));
  r.push_back(rule(R"~(\btaskkill\b[^\n]*\s/f\b)~", "force kill processes (taskkill /F)"));
  r.push_back(
      rule(R"~(\bstop-process\b[^\n]*\s-force\b)~", "force kill processes (Stop-Process -Force)"));
  r.push_back(rule(R"~(\bformat-volume\b)~", "format filesystem (Format-Volume)"));
  r.push_back(rule(R"~(\bclear-disk\b)~", "wipe disk (Clear-Disk)"));
  r.push_back(rule(R"~(\bdiskpart\b)~", "disk partitioning (diskpart)"));
  r.push_back(rule(R"~(\bformat(?:\.com)?\s+[a-z]:)~", "format drive (format.com)"));
  r.push_back(rule(R"~(\bcipher\s+/w\b)~", "wipe free space (cipher /w)"));
  r.push_back(rule(
      R"~(\bicacls\b[^\n]*\s/grant\b[^\n]*(?:\b(?:everyone|todos|jeder|tout\s+le\s+monde)\b|\*s-1-1-0\b))~",
      "grant Everyone access (icacls)"));
  r.push_back(rule(R"~(\bicacls\b[^\n]*\s/reset\b)~", "reset ACLs recursively (icacls /reset)"));
  r.push_back(rule(R"~(\bvssadmin\b[^\n]*\bdelete\s+shadows\b)~",
                   "delete volume shadow copies (vssadmin)"));
  r.push_back(rule(R"~(\bwbadmin\b[^\n]*\bdelete\b)~", "delete backups (wbadmin)"));
  r.push_back(rule(R"~(\bbcdedit\b[^\n]*\s/set\b)~", "modify boot configuration (bcdedit /set)"));
  r.push_back(rule(R"~(\breg(?:\.exe)?\s+delete\b)~", "registry delete (reg delete)"));
  r.push_back(rule(R"~(\bremove-itemproperty\b[^\n]*\s-force\b)~",
                   "registry value delete (Remove-ItemProperty -Force)"));
  r.push_back(
      rule(R"~(\bstop-service\b[^\n]*\s-force\b)~", "force stop service (Stop-Service -Force)"));
  r.push_back(rule(R"~(\bsc(?:\.exe)?\s+(?:stop|delete)\b)~", "stop/delete service (sc)"));
  r.push_back(rule(R"~(\busers[\\/][^\\/\s]+[\\/]\.ssh\b)~", "access to SSH keys (Windows path)"));
  r.push_back(rule(R"~(\bappdata[\\/](?:local|roaming)[\\/]hermes[^\n]*\.env\b)~",
                   "access to Hermes secrets (Windows path)"));
}

void add_system_rules(std::vector<CommandRule>& r) {
  const S writable = R"~((?:777|666|o\+[rwx]*w|a\+[rwx]*w))~";
  r.push_back(rule(R"~(\bchmod\s+(?:-\S*\s+)*)~" + writable + R"~(\b)~",
                   "world/other-writable permissions"));
  r.push_back(rule(R"~(\bchmod\s+--recursive\b.*)~" + writable,
                   "recursive world/other-writable (long flag)"));
  r.push_back(rule(R"~(\bchown\s+(?:-\S*)?R\s+root)~", "recursive chown to root"));
  r.push_back(rule(R"~(\bchown\s+--recur[a-z]*\b.*root)~", "recursive chown to root (long flag)"));
  r.push_back(rule(kCmdPos + R"~(mkfs\b)~", "format filesystem"));
  r.push_back(rule(kCmdPos + R"~(dd\s+.*if=)~", "disk copy"));
  r.push_back(rule(kRawDeviceWipe, "raw block device wipe (shred/wipefs/blkdiscard/sgdisk)"));
  r.push_back(rule(R"~(>\s*)~" + kBlockDevice, "write to block device"));
  r.push_back(rule(R"~(\bdrop\s+(?:table|database)\b)~", "SQL DROP"));
  // [^\n]*, not .*: a WHERE on a later line must not excuse this one.
  r.push_back(rule(R"~(\bdelete\s+from\b(?![^\n]*\bwhere\b))~", "SQL DELETE without WHERE"));
  r.push_back(rule(R"~(\btruncate\s+(?:table)?\s*\w)~", "SQL TRUNCATE"));
  r.push_back(rule(R"~(>\s*)~" + kSystemConfig, "overwrite system config"));
  r.push_back(rule(R"~(\bsystemctl\s+(?:-\S+\s+)*(?:stop|restart|disable|mask)\b)~",
                   "stop/restart system service"));
  r.push_back(rule(R"~(\bkill\s+-9\s+-1\b)~", "kill all processes"));
  r.push_back(rule(R"~(\bpkill\s+-9\b)~", "force kill processes"));
  r.push_back(rule(R"~(\bkillall\s+(?:-\S*\s+)*-(?:9|kill|sigkill)\b)~",
                   "force kill processes (killall -KILL)"));
  r.push_back(rule(R"~(\bkillall\s+(?:-\S*\s+)*-s\s+(?:kill|sigkill|9)\b)~",
                   "force kill processes (killall -s KILL)"));
  r.push_back(rule(R"~(\bkillall\s+(?:-\S*\s+)*-r\b)~", "kill processes by regex (killall -r)"));
  r.push_back(rule(kForkBomb, "fork bomb"));
}

void add_remote_code_rules(std::vector<CommandRule>& r) {
  // `| sudo bash` pipes to a shell just the same.
  r.push_back(rule(R"~(\b(?:curl|wget)\b.*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:[/\w]*/)?)~" + kShells +
                       R"~((?:\s|$|-c))~",
                   "pipe remote content to shell"));
  r.push_back(rule(R"~(\b)~" + kShells + R"~(\s+<\s*<?\s*\(\s*(?:curl|wget)\b)~",
                   "execute remote script via process substitution"));
  r.push_back(rule(R"~((?:\beval\b|\bsource\b|\.)\s*["']?(?:\$\(\s*|`\s*)(?:curl|wget)\b)~",
                   "execute remote content via command substitution"));
  // Instance-metadata endpoints serve live cloud credentials to any local process.
  r.push_back(rule(
      R"~((?<![\d.])(?:169\.254\.169\.254|100\.100\.100\.200)(?![\d.])|(?<![\w.-])metadata\.google\.internal(?![\w.-])|fd00:ec2::254)~",
      "cloud metadata endpoint access (instance credentials)"));
  const S to_shell = R"~(\|\s*\b)~" + kShells + R"~(\b)~";
  r.push_back(rule(R"~(\b(?:base64|base32|base16)\s+(?:-d|--decode)\b.*)~" + to_shell,
                   "pipe decoded content to shell (possible command obfuscation)"));
  r.push_back(rule(R"~(\bxxd\s+-r\b.*)~" + to_shell,
                   "pipe xxd-decoded content to shell (possible command obfuscation)"));
  r.push_back(rule(R"~(\becho\b[^|]*\|\s*\btr\b[^|]*)~" + to_shell,
                   "pipe tr-transformed output to shell (possible command obfuscation)"));
  r.push_back(rule(R"~(\bopenssl\b.*\b(?:base64|enc)\b[^|]*\s+-d\b[^|]*)~" + to_shell,
                   "pipe openssl-decoded content to shell (possible command obfuscation)"));
}

void add_write_target_rules(std::vector<CommandRule>& r) {
  r.push_back(rule(R"~(\btee\b.*["']?)~" + kSensitiveTarget, "overwrite system file via tee"));
  r.push_back(rule(R"~(>>?\s*["']?)~" + kSensitiveTarget, "overwrite system file via redirection"));
  r.push_back(rule(R"~(\btee\b.*["']?)~" + kProjectSensitive + R"~(["']?)~" + kWordEnd,
                   "overwrite project env/config via tee"));
  r.push_back(rule(R"~(>>?\s*["']?)~" + kProjectSensitive + R"~(["']?)~" + kWordEnd,
                   "overwrite project env/config via redirection"));
  r.push_back(rule(R"~(\bxargs\s+.*\brm\b)~", "xargs with rm"));
  r.push_back(rule(R"~(\bfind\b.*-exec(?:dir)?\s+(?:/\S*/)?rm\b)~", "find -exec/-execdir rm"));
  // Unquoted brace or glob words the shell may expand into -delete / -exec.
  r.push_back(rule(
      kCmdPos +
          R"~(find\s[^;|&\n]*(?<!\S)-(?:\{[^}\s]*(?:delete|exec(?:dir)?)[^}\s]*\}|(?:del(?:ete?)?|exec(?:dir)?)[*?\[]))~",
      "find dynamic shell word may expand to destructive flag", true));
  r.push_back(rule(R"~(\bfind\b.*-delete\b)~", "find -delete"));
  r.push_back(rule(
      R"~(\b(?:rg|sort|ag|man)\b[^;|&\n]*(?<!\S)--(?:pre|hostname-bin|compress-program|pager|html)(?:\{|[*?\[]))~",
      "dynamic shell word may expand to arbitrary program execution flag", true));
}

void add_service_rules(std::vector<CommandRule>& r) {
  r.push_back(rule(R"~(\bhermes\s+)~" + kGlobalFlags + R"~(gateway\s+(?:stop|restart)\b)~",
                   "stop/restart hermes gateway (kills running agents)"));
  r.push_back(
      rule(R"~(\bhermes\s+update\b)~", "hermes update (restarts gateway, kills running agents)"));
  // Daemon redirects come before the lifecycle rules: they give the more specific reason.
  r.push_back(rule(R"~(\bdocker\s+)~" + kContainerFlags + R"~((?:-h|--host)[=\s]+\S+)~",
                   "docker with remote daemon redirect (-H/--host)"));
  r.push_back(rule(R"~(\bdocker\s+)~" + kContainerFlags + R"~((?:-c|--context)[=\s]+\S+)~",
                   "docker with daemon redirect (--context: alternate daemon)"));
  r.push_back(rule(R"~(\bdocker\s+context\s+use\b)~",
                   "docker context use (switches default daemon for future commands)"));
  r.push_back(
      rule(R"~(\bpodman\s+)~" + kContainerFlags + R"~((?:--url|--connection|--identity)[=\s]+\S+)~",
           "podman with remote daemon redirect (--url/--connection/--identity)"));
  r.push_back(rule(R"~(\bpodman\s+)~" + kContainerFlags + R"~((?:-r\b|--remote\b))~",
                   "podman remote mode (-r/--remote: remote daemon)"));
  r.push_back(rule(R"~(\b(?:docker_host|docker_context|container_host|container_connection)=\S+)~",
                   "docker/podman daemon redirect via environment (DOCKER_HOST/CONTAINER_HOST)"));
  r.push_back(rule(R"~(\bdocker(?:-compose|\s+compose)\s+)~" + kContainerFlags +
                       R"~((?:restart|stop|kill|down)\b)~",
                   "docker compose restart/stop/kill/down (container lifecycle)"));
  r.push_back(rule(R"~(\bdocker\s+)~" + kContainerFlags + R"~((?:restart|stop|kill)\b)~",
                   "docker restart/stop/kill (container lifecycle)"));
  r.push_back(
      rule(R"~(gateway\s+run\b.*(?:&\s*$|&\s*;|\bdisown\b|\bsetsid\b))~",
           "start gateway outside systemd (use 'systemctl --user restart hermes-gateway')"));
  r.push_back(
      rule(R"~(\bnohup\b.*gateway\s+run\b)~",
           "start gateway outside systemd (use 'systemctl --user restart hermes-gateway')"));
  r.push_back(rule(R"~(\b(?:pkill|killall)\b.*\b(?:hermes|gateway|cli\.py)\b)~",
                   "kill hermes/gateway process (self-termination)"));
  r.push_back(rule(R"~(\bkill\b.*\$\(\s*(?:pgrep|pidof)\b)~",
                   "kill process via pgrep/pidof expansion (self-termination)"));
  r.push_back(rule(R"~(\bkill\b.*`\s*(?:pgrep|pidof)\b)~",
                   "kill process via backtick pgrep/pidof expansion (self-termination)"));
  // Two independent look-aheads: the label may be built before the verb appears.
  r.push_back(rule(
      R"~(\A(?=[\s\S]*\blaunchctl\s+(?:stop|kickstart|bootout|unload|kill|disable|remove)\b)(?=[\s\S]*\b(?:hermes|ai\.hermes)\b))~",
      "stop/restart hermes launchd service (kills running agents)"));
}

void add_copy_and_edit_rules(std::vector<CommandRule>& r) {
  r.push_back(rule(R"~(\b(?:cp|mv|install)\b.*\s)~" + kSystemConfig,
                   "copy/move file into system config path"));
  r.push_back(
      rule(R"~(\b(?:cp|mv|install)\b.*\s["']?)~" + kProjectSensitive + R"~(["']?)~" + kCommandTail,
           "overwrite project env/config file"));
  r.push_back(rule(R"~(\b(?:cp|mv|install)\b.*\s["']?)~" + kSensitiveTarget + R"~([^\s"']*["']?)~" +
                       kCommandTail,
                   "copy/move file into sensitive credential/SSH/shell-rc path"));
  const S rest = R"~([^\s"']*)~";
  r.push_back(rule(R"~(\bsed\s+-\S*i.*)~" + kUserSensitive + rest,
                   "in-place edit of sensitive credential/SSH/shell-rc path"));
  r.push_back(rule(R"~(\bsed\s+--in-place\b.*)~" + kUserSensitive + rest,
                   "in-place edit of sensitive credential/SSH/shell-rc path (long flag)"));
  r.push_back(rule(R"~(\b(?:perl|ruby)\b.*(?:^|\s)-\S*i\b.*)~" + kUserSensitive + rest,
                   "in-place edit of sensitive credential/SSH/shell-rc path (perl/ruby)"));
  r.push_back(rule(R"~(\bsed\s+-\S*i.*\s)~" + kSystemConfig, "in-place edit of system config"));
  r.push_back(rule(R"~(\bsed\s+--in-place\b.*\s)~" + kSystemConfig,
                   "in-place edit of system config (long flag)"));
  r.push_back(rule(R"~(\bsed\s+-\S*i.*)~" + kHermesSecret, "in-place edit of Hermes config/env"));
  r.push_back(rule(R"~(\bsed\s+--in-place\b.*)~" + kHermesSecret,
                   "in-place edit of Hermes config/env (long flag)"));
  r.push_back(rule(R"~(\b(?:perl|ruby)\b.*(?:^|\s)-\S*i\b.*)~" + kHermesSecret,
                   "in-place edit of Hermes config/env (perl/ruby)"));
  r.push_back(rule(R"~(\b)~" + kShells + R"~(\s+<<)~", "shell execution via heredoc"));
}

void add_git_sudo_package_rules(std::vector<CommandRule>& r) {
  // --hard is the only reset mode starting with h, so every prefix of it is --hard.
  r.push_back(rule(R"~(\bgit\s+reset\s+--h(?:a(?:r(?:d)?)?)?\b)~",
                   "git reset --hard (destroys uncommitted changes)"));
  r.push_back(
      rule(R"~(\bgit\s+push\b.*--forc[a-z]*\b)~", "git force push (rewrites remote history)"));
  r.push_back(
      rule(R"~(\bgit\s+push\b.*-f\b)~", "git force push short flag (rewrites remote history)"));
  r.push_back(rule(R"~(\bgit\s+clean\s+-\S*f)~", "git clean with force (deletes untracked files)"));
  // Only the capital -D forces; -d refuses to drop unmerged work.
  r.push_back(rule(R"~(\bgit\s+branch\s+(?-i:-D)\b)~", "git branch force delete"));
  r.push_back(rule(R"~(\bgit\s+branch\b[^;|&\n]*?(?:-d\b|--delete\b)[^;|&\n]*?(?:-f\b|--force\b))~",
                   "git branch force delete (long flags)"));
  r.push_back(rule(R"~(\bgit\s+branch\b[^;|&\n]*?(?:-f\b|--force\b)[^;|&\n]*?(?:-d\b|--delete\b))~",
                   "git branch force delete (long flags, force-first)"));
  r.push_back(
      rule(R"~(\bchmod\s+\+x\b.*[;&|]+\s*\./)~", "chmod +x followed by immediate execution"));
  // Without a terminal, sudo succeeds only through stdin (-S) or askpass (-A); -s and -a
  // chain privileges. Plain `sudo cmd` needs a TTY and is not flagged.
  r.push_back(rule(R"~(\bsudo\b[^;|&\n]*?\s+(?:-s\b|--st[a-z]*\b|-a\b|--a[a-z]*\b))~",
                   "sudo with privilege flag (stdin/askpass/shell/list)"));
  r.push_back(rule(R"~(\bsudo\b[^;|&\n]*?\s+-[a-z]*[sa][a-z]*\b)~",
                   "sudo with combined-flag privilege escalation"));
  r.push_back(
      rule(kCmdPos + R"~(npm\s+)~" + kPackageOptions + R"~((?:uninstall|unlink|remove|rm|r|un)\b)~",
           "package manager uninstall"));
  r.push_back(rule(kCmdPos + R"~(pnpm\s+)~" + kPackageOptions + R"~((?:uninstall|remove|rm|un)\b)~",
                   "package manager uninstall"));
  r.push_back(
      rule(kCmdPos + R"~(yarn\s+)~" + kPackageOptions + R"~((?:global\s+)?(?:uninstall|remove)\b)~",
           "package manager uninstall"));
  r.push_back(rule(kCmdPos + R"~(pip3?\s+)~" + kPackageOptions + R"~(uninstall\b)~",
                   "package manager uninstall"));
  r.push_back(rule(kCmdPos + R"~(brew\s+)~" + kPackageOptions + R"~((?:uninstall|remove|rm)\b)~",
                   "package manager uninstall"));
}

std::vector<CommandRule> build_dangerous() {
  std::vector<CommandRule> r;
  add_deletion_rules(r);
  add_windows_rules(r);
  add_system_rules(r);
  add_remote_code_rules(r);
  add_write_target_rules(r);
  add_service_rules(r);
  add_copy_and_edit_rules(r);
  add_git_sudo_package_rules(r);
  return r;
}

}  // namespace

const std::vector<CommandRule>& hardline_rules() {
  static const std::vector<CommandRule> rules = build_hardline();
  return rules;
}

const std::vector<CommandRule>& dangerous_rules() {
  static const std::vector<CommandRule> rules = build_dangerous();
  return rules;
}

}  // namespace hermes::internal
