import { NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import { AppRoutes } from "../../src/http/App.ts"
import { forRuntime } from "../../src/layers/Main.ts"
import * as NodeServer from "../../src/layers/NodeServer.ts"
import { PublicServices } from "../../src/layers/Public.ts"
import * as AppConfig from "../../src/services/AppConfig.ts"
import * as Auth from "../../src/services/Auth.ts"

/**
 * The public deployment exactly as `npm start` wires it, except that the bearer in
 * `BENCH_BEARER` resolves to an active API key without a key-store round trip, so the benchmark
 * measures MCP itself when it calls tools.
 */
const bearer = process.env.BENCH_BEARER ?? "svc_live_bench"
const auth = Auth.layerFixed({ [bearer]: { _tag: "ApiKey", keyId: "bench", status: "active", plan: "bench" } })

NodeServer.serve(
  forRuntime(AppRoutes.pipe(Layer.provide(auth), Layer.provide(PublicServices)), `node ${process.version}`)
).pipe(
  Layer.provide(AppConfig.layer),
  Layer.launch,
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
