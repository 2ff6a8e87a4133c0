import { forRuntime } from "../../src/layers/Main.ts"
import { publicAppWithRegulatoryData } from "../../src/layers/RegulatoryData.ts"
import type { AppConfigShape } from "../../src/services/AppConfig.ts"
import { type FixtureEcfr, fixtureEcfr } from "./EcfrFixtures.ts"
import { type RunningServer, startServer } from "./TestServer.ts"

/** The real Node server with the ECCN and Country Chart endpoints over the eCFR fixtures. */
export const startRegulatoryDataServer = async (
  options: { readonly config?: Partial<AppConfigShape>; readonly ecfr?: FixtureEcfr } = {}
): Promise<RunningServer & { readonly ecfr: FixtureEcfr }> => {
  const ecfr = options.ecfr ?? fixtureEcfr()
  const server = await startServer({
    config: { rateLimitPerMinute: 0, ...options.config },
    app: forRuntime(publicAppWithRegulatoryData(ecfr.layer), `node ${process.version}`)
  })
  return Object.assign(server, { ecfr })
}
