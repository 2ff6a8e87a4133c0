import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Radar } from "../../services/Radar.ts"
import { Api } from "../Api.ts"

export const RadarHttpLive = HttpApiBuilder.group(Api, "radar", (handlers) =>
  Effect.gen(function*() {
    const radar = yield* Radar
    return handlers.handle("radar", ({ urlParams }) => radar.recent(urlParams.topic))
  }))
