import { expect, test } from "bun:test";
import { citedRules, definedRules, undefinedCitations } from "./rules.ts";

const root = new URL("..", import.meta.url).pathname;

test("every rule id and section the code cites is defined in docs/RULES.md", () => {
  expect(undefinedCitations(root)).toEqual([]);
});

test("a cited id of a known family that RULES.md lacks is reported, other dashes are not", () => {
  const { ids, families } = definedRules(
    "- **ADD-4** an interface named CNI_IFNAME must not exist yet\n- **§8.1** bridge\n",
  );
  expect([...ids]).toEqual(["ADD-4", "§8.1"]);
  // Built, not written out: this file is scanned too, and must cite only real ids.
  const [add9, s92] = ["ADD-" + "9", "§" + "9.2"];
  const cited = citedRules(`// ADD-4 and ${add9}, UTF-8 text, SHA-512, see §8.1 and ${s92}`, families);
  expect(cited).toEqual(["ADD-4", add9, "§8.1", s92]);
  expect(cited.filter((c) => !ids.has(c))).toEqual([add9, s92]);
});
