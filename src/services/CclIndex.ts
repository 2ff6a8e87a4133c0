import { Context, Effect, Layer } from "effect"
import type { CclSource, EccnAnswer, EccnEntry, EccnQuery } from "../domain/Eccn.ts"
import { ear99Answer, EccnNotFound } from "../domain/Eccn.ts"
import type { UpstreamUnavailable } from "../domain/Problem.ts"
import { parseCcl, type ParsedCcl } from "./ccl/CclParser.ts"
import { nearestEccns } from "./ccl/NearestEccns.ts"
import { nearestParagraphs, sliceParagraph } from "./ccl/Paragraphs.ts"
import type { DataGeneration } from "./DataGeneration.ts"
import * as ParsedParts from "./ecfr/ParsedParts.ts"
import type { EcfrSource } from "./EcfrSource.ts"

export interface CclEntryWithSource {
  readonly entry: EccnEntry
  readonly source: CclSource
  /** False when the parsed text holds no List of Items Controlled: a paragraph could not be verified. */
  readonly itemTextAvailable: boolean
}

/**
 * The Commerce Control List (Supplement No. 1 to part 774), parsed once per eCFR snapshot and
 * sliced per request: a whole entry, or its heading and control blocks with one paragraph.
 */
export interface CclIndexShape {
  readonly lookup: (query: EccnQuery) => Effect.Effect<EccnAnswer, EccnNotFound | UpstreamUnavailable>
  /**
   * One whole entry; fails with the nearest entries when the CCL has none by that number, and with
   * the nearest paragraphs when `paragraph` is given and the entry's item text shows it has no such
   * paragraph (an entry without item text cannot show that: `itemTextAvailable` is then false).
   */
  readonly entry: (
    eccn: string,
    paragraph?: string
  ) => Effect.Effect<CclEntryWithSource, EccnNotFound | UpstreamUnavailable>
  /**
   * The ECCN whose entry holds a passage of the CCL (a search hit's excerpt: several fragments, any
   * of them enough when it occurs in one entry only); undefined when no fragment places it in one.
   */
  readonly eccnHolding: (fragments: ReadonlyArray<string>) => Effect.Effect<string | undefined, UpstreamUnavailable>
}

/** Text compared case-, accent- and spacing-blind, quotation marks alike. */
export const comparable = (text: string) =>
  text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[\u201c\u201d\u2018\u2019"']/g, "'")
    .replace(/\s+/g, " ").trim().toLowerCase()

const entryText = (entry: EccnEntry) =>
  comparable([
    entry.eccn,
    entry.heading,
    ...entry.licenseRequirements.controls.map((row) => JSON.stringify(row)),
    ...entry.licenseRequirements.notes,
    ...entry.licenseExceptions.exceptions.map((exception) => `${exception.label} ${exception.text}`),
    ...entry.licenseExceptions.notes,
    ...entry.listOfItemsControlled.fields.map((field) => `${field.label} ${field.text}`),
    ...entry.listOfItemsControlled.items.map((item) => item.text)
  ].join(" \n "))

export class CclIndex extends Context.Tag("app/CclIndex")<CclIndex, CclIndexShape>() {}

const sourceOf = (eccn: string, parsed: ParsedParts.Parsed<ParsedCcl>): CclSource => {
  const origin = parsed.origins[0]!
  return {
    citation: `15 CFR part 774, Supplement No. 1 (Commerce Control List), ECCN ${eccn}`,
    url:
      `${ParsedParts.publicEcfrSite}/on/${origin.issueDate}/title-15/part-774/appendix-Supplement%20No.%201%20to%20Part%20774`,
    issueDate: origin.issueDate,
    fetchedAt: origin.fetchedAt,
    stale: parsed.stale
  }
}

/** Distinct entries and paragraphs kept per snapshot; the CCL has a few thousand of them. */
const maxRememberedAnswers = 4096

export const make: Effect.Effect<CclIndexShape, never, EcfrSource | DataGeneration> = Effect.gen(function*() {
  const ccl = yield* ParsedParts.make({
    name: "Commerce Control List",
    parts: [774],
    parse: ([document]) => parseCcl(document!)
  })

  const notFound = (requested: string, nearest: Array<string>, issueDate: string, detail: string) =>
    new EccnNotFound({ requested, nearest, issueDate, detail })

  const findEntry = (parsed: ParsedParts.Parsed<ParsedCcl>, eccn: string) => {
    const entry = parsed.value.entries.get(eccn)
    if (entry !== undefined) return Effect.succeed(entry)
    const issueDate = parsed.origins[0]!.issueDate
    const nearest = nearestEccns([...parsed.value.entries.keys()], eccn)
    return Effect.fail(notFound(
      eccn,
      nearest,
      issueDate,
      `The Commerce Control List (eCFR ${issueDate}) has no ECCN ${eccn}.` +
        (nearest.length > 0 ? ` Nearest entries: ${nearest.join(", ")}.` : "")
    ))
  }

  // Answers are immutable per snapshot: repeated lookups (agents ask for the same ECCNs again and
  // again) share one object, which also lets the MCP catalogue reuse its encoding of it.
  const answers = new WeakMap<ParsedParts.Parsed<ParsedCcl>, Map<string, EccnAnswer>>()
  const remember = (parsed: ParsedParts.Parsed<ParsedCcl>, key: string, answer: EccnAnswer) => {
    let forSnapshot = answers.get(parsed)
    if (forSnapshot === undefined) answers.set(parsed, forSnapshot = new Map())
    if (forSnapshot.size >= maxRememberedAnswers) forSnapshot.delete(forSnapshot.keys().next().value!)
    forSnapshot.set(key, answer)
    return answer
  }

  /** Item 7 of issue 20: a missing paragraph says whether the entry's item text was there to look in. */
  const missingParagraph = (parsed: ParsedParts.Parsed<ParsedCcl>, entry: EccnEntry, paragraph: string) => {
    const { eccn } = entry
    const items = entry.listOfItemsControlled.items
    const nearest = nearestParagraphs(items, paragraph).map((p) => `${eccn}.${p}`)
    const issueDate = parsed.origins[0]!.issueDate
    const lettered = items.some((block) => block.kind === "paragraph")
    const detail = items.length === 0
      ? `The eCFR text of ECCN ${eccn} (${issueDate}) as parsed here holds no List of Items Controlled, so ` +
        `whether it has a paragraph .${paragraph} cannot be checked: read the entry at ${sourceOf(eccn, parsed).url}.`
      : !lettered
      ? `ECCN ${eccn} (eCFR ${issueDate}) has no paragraph .${paragraph}: its List of Items Controlled has no ` +
        "lettered paragraphs (the items are described in its text); ask for the ECCN without a paragraph."
      : `ECCN ${eccn} (eCFR ${issueDate}) has no paragraph .${paragraph}; its item text was read.` +
        (nearest.length > 0 ? ` Nearest paragraphs: ${nearest.join(", ")}.` : "")
    return new EccnNotFound({
      requested: `${eccn}.${paragraph}`,
      nearest,
      issueDate,
      itemTextAvailable: items.length > 0,
      detail
    })
  }

  const answerOf = (parsed: ParsedParts.Parsed<ParsedCcl>, eccn: string, paragraph: string | undefined) =>
    Effect.gen(function*() {
      const entry = yield* findEntry(parsed, eccn)
      const source = sourceOf(eccn, parsed)
      if (paragraph === undefined) {
        return { kind: "entry", requested: eccn, paragraph: null, entry, source } satisfies EccnAnswer
      }
      const requested = `${eccn}.${paragraph}`
      const items = sliceParagraph(entry.listOfItemsControlled.items, paragraph)
      if (items === undefined) return yield* missingParagraph(parsed, entry, paragraph)
      return {
        kind: "entry",
        requested,
        paragraph,
        entry: { ...entry, listOfItemsControlled: { ...entry.listOfItemsControlled, items } },
        source
      } satisfies EccnAnswer
    })

  const lookupEntry = (eccn: string, paragraph: string | undefined) =>
    Effect.flatMap(ccl.get, (parsed) => {
      const key = paragraph === undefined ? eccn : `${eccn}.${paragraph}`
      const known = answers.get(parsed)?.get(key)
      return known === undefined
        ? Effect.map(answerOf(parsed, eccn, paragraph), (answer) => remember(parsed, key, answer))
        : Effect.succeed(known)
    })

  const texts = new WeakMap<ParsedParts.Parsed<ParsedCcl>, ReadonlyArray<readonly [string, string]>>()
  const textsOf = (parsed: ParsedParts.Parsed<ParsedCcl>) => {
    let known = texts.get(parsed)
    if (known === undefined) {
      known = [...parsed.value.entries.values()].map((entry) => [entry.eccn, entryText(entry)] as const)
      texts.set(parsed, known)
    }
    return known
  }

  return {
    eccnHolding: (fragments) =>
      Effect.map(ccl.get, (parsed) => {
        const entries = textsOf(parsed)
        // longest first: a long fragment is the likeliest to occur in one entry only
        const candidates = fragments.map(comparable).filter((fragment) => fragment.length >= 12)
          .sort((a, b) => b.length - a.length)
        for (const fragment of candidates) {
          const holding = entries.filter(([, text]) => text.includes(fragment))
          if (holding.length === 1) return holding[0]![0]
        }
        return undefined
      }),
    lookup: (query) => query._tag === "Ear99" ? Effect.succeed(ear99Answer) : lookupEntry(query.eccn, query.paragraph),
    entry: (eccn, paragraph) =>
      Effect.flatMap(ccl.get, (parsed) =>
        Effect.flatMap(findEntry(parsed, eccn), (entry) => {
          const itemTextAvailable = entry.listOfItemsControlled.items.length > 0
          if (paragraph !== undefined && itemTextAvailable) {
            if (sliceParagraph(entry.listOfItemsControlled.items, paragraph) === undefined) {
              return Effect.fail(missingParagraph(parsed, entry, paragraph))
            }
          }
          return Effect.succeed({ entry, source: sourceOf(eccn, parsed), itemTextAvailable })
        }))
  }
})

export const layer: Layer.Layer<CclIndex, never, EcfrSource | DataGeneration> = Layer.effect(CclIndex, make)
