import { NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import { appLayer } from "./layers/Main.ts"
import * as NodeServer from "./layers/NodeServer.ts"
import * as AppConfig from "./services/AppConfig.ts"

NodeServer.serve(appLayer(`node ${process.version}`)).pipe(
  Layer.provide(AppConfig.layer),
  Layer.launch,
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
