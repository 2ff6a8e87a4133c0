// The service with the ECCN and Country Chart endpoints over an in-memory EcfrSource: the
// generated CCL and the Country Chart fixtures (benchmarks never touch the internet).
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { forRuntime } from "../../src/layers/Main.ts"
import * as NodeServer from "../../src/layers/NodeServer.ts"
import { publicAppWithRegulatoryData } from "../../src/layers/RegulatoryData.ts"
import * as AppConfig from "../../src/services/AppConfig.ts"
import { EcfrSource } from "../../src/services/EcfrSource.ts"
import { fixtureText, generatedCcl } from "./generated-ccl.ts"

const parts = new Map<number, string>([
  [774, generatedCcl().xml],
  [738, fixtureText("country/part-738.xml")],
  [740, fixtureText("country/part-740.xml")],
  [746, fixtureText("country/part-746.xml")]
])
const served = (value: string) => ({
  value,
  issueDate: "2026-07-23",
  fetchedAt: new Date().toISOString(),
  stale: false
})
const ecfr = Layer.succeed(EcfrSource, { partXml: (part) => Effect.succeed(served(parts.get(part)!)) })

NodeServer.serve(forRuntime(publicAppWithRegulatoryData(ecfr), `node ${process.version}`)).pipe(
  Layer.provide(AppConfig.layer),
  Layer.launch,
  NodeRuntime.runMain({ disablePrettyLogger: true })
)
