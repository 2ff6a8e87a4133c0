import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { CountryChart } from "../../services/CountryChart.ts"
import { Api } from "../Api.ts"

export const CountryChartHttpLive = HttpApiBuilder.group(
  Api,
  "countryChart",
  (handlers) =>
    Effect.gen(function*() {
      const countryChart = yield* CountryChart
      return handlers.handle("countryChart", ({ urlParams }) => countryChart.lookup(urlParams))
    })
)
