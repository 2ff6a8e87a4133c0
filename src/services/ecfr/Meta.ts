import { Effect } from "effect"
import type { MetaPayload } from "../../domain/Cfr.ts"
import { supportedParts } from "../../domain/Service.ts"
import { AppConfig } from "../AppConfig.ts"
import { EcfrSource } from "../EcfrSource.ts"
import { refreshSchedule } from "./Live.ts"

const supported = supportedParts.map((p) => ({
  ...p,
  endpoint: `/api/ecfr/${p.part}`,
  search: `/api/ecfr/${p.part}/search`
}))

/** `GET /api/ecfr/meta` and `get_ecfr_meta`: the mirrored parts, each snapshot's state, the schedule. */
export const metaPayload: Effect.Effect<typeof MetaPayload.Type, never, EcfrSource | AppConfig> = Effect.gen(
  function*() {
    const config = yield* AppConfig
    const source = yield* EcfrSource
    const cache = yield* source.cacheReport
    return { supportedParts: supported, cache, refreshSchedule, source: config.ecfrBaseUrl }
  }
)
