/**
 * MAC addresses as the reference reads them (Go's `net.ParseMAC`, 6-byte forms): colon,
 * dash or dotted-quad notation; the error text is Go's.
 */

/** The MAC in lower-case colon form, or undefined when Go's ParseMAC would refuse it as a 6-byte address. */
export function parseGoMac(text: string): string | undefined {
  let hex: string[] | undefined;
  if (/^[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(\1[0-9a-fA-F]{2}){4}$/.test(text)) hex = text.split(/[:-]/);
  else if (/^[0-9a-fA-F]{4}\.[0-9a-fA-F]{4}\.[0-9a-fA-F]{4}$/.test(text))
    hex = text.replaceAll(".", "").match(/../g) ?? undefined;
  return hex?.map((h) => h.toLowerCase()).join(":");
}

/** Go's error for a MAC ParseMAC refuses. */
export function goMacError(text: string): string {
  return `address ${text}: invalid MAC address`;
}
