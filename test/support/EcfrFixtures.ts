import { Effect, Layer } from "effect"
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { UpstreamUnavailable } from "../../src/domain/Problem.ts"
import type { SupportedPartNumber } from "../../src/domain/Service.ts"
import * as DataGeneration from "../../src/services/DataGeneration.ts"
import { parseXmlNow } from "../../src/services/ecfr/Xml.ts"
import { EcfrSource } from "../../src/services/EcfrSource.ts"
import { findAll, textOf, type XmlElement } from "../../src/services/xml/XmlTree.ts"
import { ecfrFixtures } from "./EcfrFake.ts"

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8")

/** Where each part's fixture lives under test/fixtures. */
export const fixturePaths: ReadonlyArray<readonly [SupportedPartNumber, string]> = [
  [774, "ccl/part-774.xml"],
  [738, "country/part-738.xml"],
  [740, "country/part-740.xml"],
  [746, "country/part-746.xml"]
]

/** The eCFR-format fixtures we author, by part. */
export const fixtureParts = (): Map<SupportedPartNumber, string> =>
  new Map(fixturePaths.map(([part, path]) => [part, fixture(path)]))

interface FixtureState {
  readonly issueDate: string
  readonly stale: boolean
  /** Every call fails as an unreachable eCFR with no stored copy. */
  readonly down: boolean
}

export interface FixtureEcfr {
  readonly parts: ReadonlyMap<SupportedPartNumber, string>
  readonly calls: ReadonlyArray<SupportedPartNumber>
  /** Serves a new text for a part (a new snapshot); like the mirror, bumps the data generation. */
  readonly replace: (part: SupportedPartNumber, text: string) => void
  /** Changes what every part is served as; bumps the data generation. */
  readonly update: (changes: Partial<FixtureState>) => void
  readonly layer: Layer.Layer<EcfrSource, never, DataGeneration.DataGeneration>
}

/** An EcfrSource over in-memory part texts (the fixtures by default). */
export const fixtureEcfr = (initial = fixtureParts()): FixtureEcfr => {
  const parts = new Map(initial)
  const calls: Array<SupportedPartNumber> = []
  let state: FixtureState = { issueDate: "2026-07-23", stale: false, down: false }
  let changed = () => {}
  const partXml = (part: SupportedPartNumber) =>
    Effect.suspend(() => {
      calls.push(part)
      const value = parts.get(part)
      if (state.down || value === undefined) {
        return Effect.fail(new UpstreamUnavailable({ upstream: "ecfr", detail: `part ${part} is unavailable` }))
      }
      return Effect.succeed({
        value,
        issueDate: state.issueDate,
        fetchedAt: "2026-07-23T06:00:00.000Z",
        stale: state.stale
      })
    })
  // CclIndex and CountryChart read whole parts only; the mirror's other operations are not part of this fixture.
  const unused = Effect.dieMessage("the fixture EcfrSource serves partXml only")
  const layer = Layer.effect(
    EcfrSource,
    Effect.map(DataGeneration.DataGeneration, (generation) => {
      changed = () => Effect.runSync(generation.bump)
      return {
        partXml,
        structure: () => unused,
        sections: () => unused,
        section: () => unused,
        versions: () => unused,
        searchPart: () => unused,
        searchTitle: () => unused,
        cacheReport: unused
      }
    })
  )
  return {
    parts,
    calls,
    replace: (part, text) => {
      parts.set(part, text)
      changed()
    },
    update: (changes) => {
      state = { ...state, ...changes }
      changed()
    },
    layer
  }
}

const node = (type: string, identifier: string, label: string, children?: Array<unknown>) => ({
  identifier,
  label,
  label_level: label.split("—")[0],
  label_description: label.split("—")[1] ?? label,
  reserved: false,
  type,
  ...(children ? { children } : {})
})

/**
 * The structure and versions responses that go with a part's XML fixture: the title → part path of
 * the eCFR structure tree, with a node per section and supplement the XML holds.
 */
const companions = (part: number, xml: string) => {
  const root = parseXmlNow(xml)
  const units = findAll(root, (e) => e.name === "DIV8" || e.name === "DIV9").map((e) => ({
    identifier: e.attributes["N"]!,
    type: e.name === "DIV8" ? "section" : "appendix",
    heading: textOf(e.children.find((c): c is XmlElement => typeof c !== "string" && c.name === "HEAD")!)
  }))
  const partNode = node(
    "part",
    String(part),
    textOf(root.children.find((c): c is XmlElement => typeof c !== "string" && c.name === "HEAD")!),
    units.map((u) => node(u.type, u.identifier, u.heading))
  )
  const structure = node("title", "15", "Title 15—Commerce and Foreign Trade", [
    node("subtitle", "B", "Subtitle B—Regulations Relating to Commerce and Foreign Trade", [
      node("chapter", "VII", " Chapter VII—Bureau of Industry and Security, Department of Commerce", [
        node("subchapter", "C", "Subchapter C—Export Administration Regulations", [partNode])
      ])
    ])
  ])
  const versions = {
    content_versions: units.map((u) => ({
      date: "2026-07-23",
      amendment_date: "2026-07-23",
      issue_date: "2026-07-23",
      identifier: u.identifier,
      name: u.heading,
      part: String(part),
      substantive: true,
      removed: false,
      subpart: null,
      title: "15",
      type: u.type
    })),
    meta: { title: "15", result_count: String(units.length), latest_amendment_date: "2026-07-23" }
  }
  return { structure, versions }
}

/**
 * Title 15 part texts in the saved-response layout the fake eCFR API (`EcfrFake.ts`) serves, in a
 * new temporary directory, with the titles response of the eCFR fixtures.
 */
export const writeSavedResponses = (parts: ReadonlyMap<SupportedPartNumber, string>): string => {
  const dir = mkdtempSync(join(tmpdir(), "ccl-ecfr-"))
  mkdirSync(join(dir, "title-15"))
  copyFileSync(join(ecfrFixtures, "titles.json"), join(dir, "titles.json"))
  for (const [part, xml] of parts) {
    const { structure, versions } = companions(part, xml)
    writeFileSync(join(dir, "title-15", `part-${part}.xml`), xml)
    writeFileSync(join(dir, "title-15", `part-${part}.structure.json`), JSON.stringify(structure))
    writeFileSync(join(dir, "title-15", `part-${part}.versions.json`), JSON.stringify(versions))
  }
  return dir
}
