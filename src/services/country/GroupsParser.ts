import {
  elements,
  findAll,
  findAppendix,
  normalizeSpace,
  textOf,
  textWithoutSuperscripts,
  type XmlElement,
  XmlParseError
} from "../xml/XmlTree.ts"

/**
 * Country Groups (Supplement No. 1 to part 740): tables for groups A, D and E whose column headings
 * carry the group codes (`[A:1] Wassenaar Arrangement Participating States`), with an X where a
 * country is a member, and Country Group B as a list (`SCOL2`/`LI`) under its own heading.
 */
export interface ParsedGroups {
  /** Group code → column heading. */
  readonly titles: ReadonlyMap<string, string>
  /** Row label → the groups it belongs to, in table order. */
  readonly memberships: ReadonlyMap<string, ReadonlyArray<string>>
}

export const GroupsSupplement = "Supplement No. 1 to Part 740"

const groupCode = /\[?\b([A-E]):(\d)\]?/

const rowLabel = (cell: XmlElement) => textWithoutSuperscripts(cell).replace(/\s+\d+$/, "").trim()

export const parseGroups = (xml: XmlElement): ParsedGroups => {
  const supplement = findAppendix(xml, GroupsSupplement)
  if (supplement === undefined) throw new XmlParseError(`${GroupsSupplement} is missing from the part 740 XML`)
  const titles = new Map<string, string>()
  const memberships = new Map<string, Array<string>>()
  const join = (label: string, group: string) => {
    const groups = memberships.get(label) ?? []
    if (!groups.includes(group)) groups.push(group)
    memberships.set(label, groups)
  }

  for (const table of findAll(supplement, (e) => e.name === "TABLE")) {
    const headers = findAll(table, (e) => e.name === "TH")
    const codes: Array<string | undefined> = []
    for (const th of headers) {
      const span = Number(th.attributes["colspan"] ?? 1)
      const match = groupCode.exec(textOf(th))
      const code = match ? `${match[1]}:${match[2]}` : undefined
      if (code !== undefined) titles.set(code, normalizeSpace(textWithoutSuperscripts(th).replace(groupCode, "")))
      for (let i = 0; i < span; i++) codes.push(code)
    }
    if (!codes.some((code) => code !== undefined)) continue
    for (const row of findAll(table, (e) => e.name === "TR")) {
      const cells = elements(row).filter((cell) => cell.name === "TD")
      if (cells.length < 2) continue
      const label = rowLabel(cells[0]!)
      if (label === "" || label.length > 80) continue
      cells.slice(1).forEach((cell, i) => {
        const code = codes[i + 1]
        if (code !== undefined && /\bX\b/i.test(textOf(cell))) join(label, code)
      })
    }
  }
  if (memberships.size === 0) {
    throw new XmlParseError("no Country Group table was found in Supplement No. 1 to part 740")
  }

  const children = elements(supplement)
  const bHeading = children.findIndex((e) =>
    /^Country Group B\b/i.test(textOf(e)) && findAll(e, (li) => li.name === "LI").length === 0
  )
  if (bHeading < 0) throw new XmlParseError("the Country Group B heading was not found")
  titles.set(
    "B",
    normalizeSpace(textOf(children[bHeading]!).replace(/^Country Group B\s*[—–-]?\s*/i, "")) || "Country Group B"
  )
  const list = children.slice(bHeading + 1).find((e) => findAll(e, (li) => li.name === "LI").length > 0)
  if (list === undefined) throw new XmlParseError("the Country Group B list was not found")
  for (const item of findAll(list, (e) => e.name === "LI")) {
    const label = rowLabel(item)
    if (label !== "") join(label, "B")
  }
  return { titles, memberships }
}
