import type { PartyCheckResult, PartySourceGroup } from "../../domain/PartyEnforcement.ts"

/**
 * The plain-language line of a party check. It never says more than the groups show: a failed or
 * unconfigured source is named as not checked, and the absence of hits is worded as "no match
 * found in" the sources that were checked, never as a clearance.
 */

const list = (items: ReadonlyArray<string>) =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`

const matches = (count: number) => `${count} possible match${count === 1 ? "" : "es"}`

export const resultOf = (groups: ReadonlyArray<PartySourceGroup>): typeof PartyCheckResult.Type =>
  groups.some((group) => group.total_hits > 0)
    ? "possible_match"
    : groups.every((group) => group.status === "ok")
    ? "no_match_found"
    : "incomplete"

export const summarize = (groups: ReadonlyArray<PartySourceGroup>): string => {
  const checked = groups.filter((group) => group.status === "ok")
  const found = checked.filter((group) => group.total_hits > 0)
  const clear = checked.filter((group) => group.total_hits === 0)
  const unchecked = groups.filter((group) => group.status !== "ok")
  const stale = checked.filter((group) => group.stale)
  const sentences: Array<string> = []
  if (found.length > 0) {
    sentences.push(`${list(found.map((group) => `${matches(group.total_hits)} in ${group.label}`))}.`)
  }
  if (clear.length > 0) sentences.push(`No match found in ${list(clear.map((group) => group.label))}.`)
  if (unchecked.length > 0) {
    const reasons = unchecked.map((group) =>
      `${group.label} (${group.status === "error" ? "source unavailable" : "not configured"})`
    )
    sentences.push(`Not checked: ${list(reasons)}.`)
  }
  if (stale.length > 0) {
    sentences.push(`Checked against the last good copy of ${list(stale.map((group) => group.label))}.`)
  }
  return sentences.join(" ")
}
