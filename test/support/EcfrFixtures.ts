import { Effect, Layer } from "effect"
import { readFileSync } from "node:fs"
import { UpstreamUnavailable } from "../../src/domain/Problem.ts"
import type { SupportedPartNumber } from "../../src/domain/Service.ts"
import { EcfrSource } from "../../src/services/EcfrSource.ts"

const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8")

/** The eCFR-format fixtures we author, by part. */
export const fixtureParts = (): Map<SupportedPartNumber, string> =>
  new Map<SupportedPartNumber, string>([
    [774, fixture("ccl/part-774.xml")],
    [738, fixture("country/part-738.xml")],
    [740, fixture("country/part-740.xml")],
    [746, fixture("country/part-746.xml")]
  ])

export interface FixtureEcfr {
  /** Part texts served; tests replace entries to simulate a new snapshot. */
  readonly parts: Map<SupportedPartNumber, string>
  issueDate: string
  stale: boolean
  /** When set, every call fails as an unreachable eCFR with no stored copy. */
  down: boolean
  readonly calls: Array<SupportedPartNumber>
  readonly layer: Layer.Layer<EcfrSource>
}

/** An EcfrSource over in-memory part texts (the fixtures by default). */
export const fixtureEcfr = (parts = fixtureParts()): FixtureEcfr => {
  const state: Omit<FixtureEcfr, "layer"> = { parts, issueDate: "2026-07-23", stale: false, down: false, calls: [] }
  const layer = Layer.succeed(EcfrSource, {
    partXml: (part) =>
      Effect.suspend(() => {
        state.calls.push(part)
        const value = state.parts.get(part)
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
  })
  return Object.assign(state, { layer })
}
