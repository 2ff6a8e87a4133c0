import { findAll, textOf, type XmlElement } from "../xml/XmlTree.ts"

/** A section of part 746 (Embargoes and Other Special Controls), by its heading. */
export interface EmbargoSection {
  readonly section: string
  readonly heading: string
}

/** Every section of part 746 (`DIV8 N="746.8"`) with its heading, in order. */
export const parseEmbargoSections = (xml: XmlElement): ReadonlyArray<EmbargoSection> =>
  findAll(xml, (e) => e.name === "DIV8" && /^746\.\d+$/.test(e.attributes["N"] ?? "")).map((div) => ({
    section: div.attributes["N"]!,
    heading: textOf(div.children.find((c): c is XmlElement => typeof c !== "string" && c.name === "HEAD") ?? "")
  }))
