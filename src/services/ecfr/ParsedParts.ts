import { Clock, Effect } from "effect"
import { UpstreamUnavailable } from "../../domain/Problem.ts"
import type { SupportedPartNumber } from "../../domain/Service.ts"
import { DataGeneration } from "../DataGeneration.ts"
import { EcfrSource } from "../EcfrSource.ts"
import { parseXml, type XmlElement } from "./Xml.ts"

/** Citable links point at the public eCFR site, whatever `ECFR_BASE_URL` the mirror reads from. */
export const publicEcfrSite = "https://www.ecfr.gov"

/** How long an answer of the source is reused while the data generation stays the same. */
export const recheckMillis = 1000

/** Where a parsed value's text came from, per part. */
export interface PartOrigin {
  readonly part: SupportedPartNumber
  readonly issueDate: string
  readonly fetchedAt: string
  readonly stale: boolean
}

export interface Parsed<A> {
  readonly value: A
  readonly origins: ReadonlyArray<PartOrigin>
  /** True when any part is an older stored copy, or the newest text could not be parsed. */
  readonly stale: boolean
}

interface Built<A> {
  readonly texts: ReadonlyArray<string>
  readonly value: A
  readonly origins: ReadonlyArray<PartOrigin>
}

/**
 * A value parsed from eCFR parts, rebuilt only when the text of a part changes. Each request asks
 * `EcfrSource` for the parts (served from its snapshot store) and compares the text with the text
 * the current value was built from (the same string in the common case, so the check is cheap);
 * a different text is parsed once, under a lock, and replaces the value. Text that fails to parse
 * never replaces a good value: the older value answers, with its own origins, marked stale.
 */
export const make = <A>(options: {
  readonly name: string
  readonly parts: ReadonlyArray<SupportedPartNumber>
  /** Builds the value from the parts' documents (in `parts` order); throws when they lack what it needs. */
  readonly parse: (documents: ReadonlyArray<XmlElement>) => A
}) =>
  Effect.gen(function*() {
    const source = yield* EcfrSource
    const generation = yield* DataGeneration
    const lock = yield* Effect.makeSemaphore(1)
    let built: Built<A> | undefined

    const sameTexts = (texts: ReadonlyArray<string>) =>
      built !== undefined && built.texts.every((text, i) => text === texts[i])

    const current = (origins: ReadonlyArray<PartOrigin>): Parsed<A> => ({
      value: built!.value,
      origins,
      stale: origins.some((o) => o.stale)
    })

    const unreadable = new UpstreamUnavailable({
      upstream: "ecfr",
      detail: `The eCFR text behind the ${options.name} could not be read; retry later.`
    })

    const rebuild = (texts: ReadonlyArray<string>, origins: ReadonlyArray<PartOrigin>) =>
      lock.withPermits(1)(Effect.suspend(() => {
        if (sameTexts(texts)) return Effect.succeed(current(origins))
        // parseXml pauses between chunks, so parsing a 2 MB part never stalls other requests
        return Effect.forEach(texts, parseXml).pipe(
          Effect.flatMap((documents) => Effect.try(() => options.parse(documents))),
          Effect.flatMap((value) => {
            const replaced = built !== undefined
            built = { texts, value, origins }
            return Effect.as(replaced ? generation.bump : Effect.void, current(origins))
          }),
          Effect.catchAll((error) =>
            Effect.logWarning(`${options.name}: eCFR text could not be parsed`, {
              detail: String("error" in error ? error.error : error.message)
            }).pipe(
              Effect.zipRight(
                built === undefined
                  ? Effect.fail(unreadable)
                  : Effect.succeed({ value: built.value, origins: built.origins, stale: true })
              )
            )
          )
        )
      }))

    const ask: Effect.Effect<Parsed<A>, UpstreamUnavailable> = Effect.gen(function*() {
      // Sequential: the parts come from the snapshot store, and forking per request costs more than it saves.
      const served = yield* Effect.forEach(options.parts, (part) => source.partXml(part))
      const texts = served.map((s) => s.value)
      const origins = served.map((s, i) => ({
        part: options.parts[i]!,
        issueDate: s.issueDate,
        fetchedAt: s.fetchedAt,
        stale: s.stale
      }))
      return sameTexts(texts) ? current(origins) : yield* rebuild(texts, origins)
    })

    // The source bumps the data generation whenever a part's text or staleness changes, so an
    // answer checked less than `recheckMillis` ago under the same generation is still the answer;
    // asking at most that often keeps the source's own freshness checks running under load.
    let checked: { readonly at: number; readonly generation: number; readonly parsed: Parsed<A> } | undefined
    const get: Effect.Effect<Parsed<A>, UpstreamUnavailable> = Effect.flatMap(Clock.currentTimeMillis, (now) => {
      if (checked !== undefined && checked.generation === generation.current() && now - checked.at < recheckMillis) {
        return Effect.succeed(checked.parsed)
      }
      const before = generation.current()
      return Effect.tap(ask, (parsed) =>
        Effect.sync(() => {
          checked = { at: now, generation: before === generation.current() ? before : -1, parsed }
        }))
    })
    return { get }
  })
