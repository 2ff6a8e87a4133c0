import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Screening } from "../../services/Screening.ts"
import { ScreeningChanges } from "../../services/ScreeningChanges.ts"
import { Api } from "../Api.ts"

export const ScreeningHttpLive = HttpApiBuilder.group(
  Api,
  "screening",
  (handlers) =>
    Effect.gen(function*() {
      const screening = yield* Screening
      const changes = yield* ScreeningChanges
      return handlers
        .handle("csl", ({ urlParams }) => screening.search(urlParams))
        .handle("cslChanges", ({ urlParams }) => changes.since(urlParams))
    })
)
