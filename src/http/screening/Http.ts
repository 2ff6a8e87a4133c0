import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Screening } from "../../services/Screening.ts"
import { Api } from "../Api.ts"

export const ScreeningHttpLive = HttpApiBuilder.group(
  Api,
  "screening",
  (handlers) =>
    Effect.map(Screening, (screening) => handlers.handle("csl", ({ urlParams }) => screening.search(urlParams)))
)
