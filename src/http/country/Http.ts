import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { CountryChartAnswer } from "../../domain/Country.ts"
import { CountryChart } from "../../services/CountryChart.ts"
import { Api } from "../Api.ts"

const respond = HttpServerResponse.schemaJson(CountryChartAnswer)

/**
 * Like the eCFR and ECCN endpoints: when a stored copy of one of the three parts answers because
 * eCFR failed, `X-Data-Stale` names the oldest such copy.
 */
const staleHeaders = (answer: CountryChartAnswer): Record<string, string> => {
  const stale = answer.sources.filter((source) => source.stale)
  if (stale.length === 0) return {}
  const oldest = stale.reduce((a, b) => (b.fetchedAt < a.fetchedAt ? b : a))
  return { "x-data-stale": `true; fetched-at=${oldest.fetchedAt}; issue-date=${oldest.issueDate}` }
}

export const CountryChartHttpLive = HttpApiBuilder.group(
  Api,
  "countryChart",
  (handlers) =>
    Effect.gen(function*() {
      const countryChart = yield* CountryChart
      return handlers.handle("countryChart", ({ urlParams }) =>
        Effect.flatMap(
          countryChart.lookup(urlParams),
          // the answer was built from the schema's own type: encoding it cannot fail
          (answer) => Effect.orDie(respond(answer, { headers: staleHeaders(answer) }))
        ))
    })
)
