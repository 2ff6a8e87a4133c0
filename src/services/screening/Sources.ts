/**
 * The bulk file names each record's list in full ("Entity List (EL) - Bureau of Industry and
 * Security"); queries and responses use the short code. The code is the parenthesised
 * abbreviation of the list name, except the Non-SDN Menu-Based Sanctions list whose name reads
 * "(NS-MBS List)" but whose query code is `MBS`. A list that appears later keeps its own
 * parenthesised code, so it is searchable even before it is known here.
 */
const parenthesised = /\(([^()]+)\)/

export const sourceCode = (fullName: string): string => {
  const inner = parenthesised.exec(fullName)?.[1]?.trim().toUpperCase()
  if (inner === undefined) return fullName.trim().toUpperCase()
  return inner.replace(/\s+LIST$/, "").replace(/^NS-/, "")
}
