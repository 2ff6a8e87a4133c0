import { Layer } from "effect"
import { AppRoutes } from "../../src/http/App.ts"
import { forRuntime } from "../../src/layers/Main.ts"
import { publicServicesOver } from "../../src/layers/Public.ts"
import type { AppConfigShape } from "../../src/services/AppConfig.ts"
import type { Auth } from "../../src/services/Auth.ts"
import { type FixtureEcfr, fixtureEcfr } from "./EcfrFixtures.ts"
import { type RunningServer, startServer } from "./TestServer.ts"
import { testStore } from "./TestStore.ts"

/**
 * The real Node server and app, with `EcfrSource` answering from the eCFR-format fixtures in memory
 * (and, when given, another Auth than the public deployment's).
 */
export const startRegulatoryDataServer = async (
  options: {
    readonly config?: Partial<AppConfigShape>
    readonly ecfr?: FixtureEcfr
    readonly auth?: Layer.Layer<Auth>
  } = {}
): Promise<RunningServer & { readonly ecfr: FixtureEcfr }> => {
  const ecfr = options.ecfr ?? fixtureEcfr()
  const server = await startServer({
    config: { rateLimitPerMinute: 0, ...options.config },
    app: forRuntime(
      AppRoutes.pipe(Layer.provide(options.auth ?? Layer.empty), Layer.provide(publicServicesOver(ecfr.layer))),
      `node ${process.version}`,
      testStore
    )
  })
  return Object.assign(server, { ecfr })
}
