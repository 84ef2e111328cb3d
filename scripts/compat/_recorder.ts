/**
 * A recording fake plugin: a tiny shell script that saves the environment and stdin of
 * every call and answers a fixed result naming itself, so a test can compare exactly
 * what two runtimes send to the plugins of a list (P-8, §2.4, §6, §7.4).
 */
import { chmodSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The environment variable that tells the recorder where to write. */
export const RECORD_ENV = "TSCNI_RECORD_DIR";

// Each call writes <n>.env and <n>.stdin; ADD answers a result whose interface is named
// after the plugin's type, in the config's version (0.4.0 or 1.0.0), so the prevResult a
// later plugin receives shows which plugin answered.
const SCRIPT = `#!/bin/sh
d="$${RECORD_ENV}"
n=$(cat "$d/.count" 2>/dev/null || echo 0)
echo $((n + 1)) > "$d/.count"
f=$(printf '%s/%03d' "$d" "$n")
cat > "$f.stdin"
env > "$f.env"
me=$(basename "$0")
case "$CNI_COMMAND" in
ADD)
  if grep -Eq '"cniVersion": ?"0[.]4[.]0"' "$f.stdin"; then v='"version":"4",'; cv=0.4.0; else v=; cv=1.0.0; fi
  printf '{"cniVersion":"%s","interfaces":[{"name":"%s","sandbox":"%s"}],"ips":[{%s"interface":0,"address":"198.18.70.2/24","gateway":"198.18.70.1"}],"routes":[{"dst":"0.0.0.0/0","gw":"198.18.70.1"}],"dns":{"nameservers":["198.18.70.53"]}}' "$cv" "$me" "$CNI_NETNS" "$v"
  ;;
VERSION)
  printf '{"cniVersion":"1.0.0","supportedVersions":["0.3.0","0.3.1","0.4.0","1.0.0"]}'
  ;;
esac
`;

/** Writes the recorder into `binDir` under each of `names` (links to one script). */
export function installRecorder(binDir: string, names: readonly string[]): void {
  mkdirSync(binDir, { recursive: true });
  const script = join(binDir, ".recorder.sh");
  writeFileSync(script, SCRIPT);
  chmodSync(script, 0o755);
  for (const name of names) symlinkSync(".recorder.sh", join(binDir, name));
}

/** One recorded plugin call. */
export interface Recorded {
  /** The CNI_* variables it got. */
  cni: Record<string, string>;
  /** Every other variable it got. */
  other: Record<string, string>;
  /** stdin parsed as JSON (or the raw text when it is not JSON). */
  stdin: unknown;
}

function _parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}

/** The calls recorded in `dir`, in order. */
export function readRecords(dir: string): Recorded[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".stdin"))
    .sort()
    .map((f) => {
      const base = join(dir, f.slice(0, -".stdin".length));
      const env = _parseEnv(readFileSync(`${base}.env`, "utf8"));
      const raw = readFileSync(`${base}.stdin`, "utf8");
      let stdin: unknown = raw;
      try {
        stdin = JSON.parse(raw);
      } catch {
        // kept as text: a difference then shows as such
      }
      const cni = Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith("CNI_")));
      const other = Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith("CNI_")));
      return { cni, other, stdin };
    });
}
