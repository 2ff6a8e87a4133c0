import { Effect, Exit, Layer, Option, Scope } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { appLayer } from "../../src/layers/Main.ts"
import * as NodeServer from "../../src/layers/NodeServer.ts"
import type { StoreLayer } from "../../src/layers/Store.ts"
import type { AppConfigShape } from "../../src/services/AppConfig.ts"
import * as AppConfig from "../../src/services/AppConfig.ts"
import { freePort } from "./ports.ts"
import { testStore } from "./TestStore.ts"

export interface RunningServer {
  readonly url: string
  readonly get: (path: string, init?: RequestInit) => Promise<Response>
  readonly close: () => Promise<void>
}

/** Defaults that keep tests off the network, quiet, and out of the working tree's `.data`. */
export const testConfig = (overrides: Partial<AppConfigShape> = {}): Partial<AppConfigShape> => ({
  host: "127.0.0.1",
  dataDir: mkdtempSync(join(tmpdir(), "ecds-test-")),
  logLevel: "none",
  ecfrBaseUrl: "http://127.0.0.1:9",
  federalRegisterBaseUrl: "http://127.0.0.1:9",
  secEdgarBaseUrl: "http://127.0.0.1:9",
  govinfoBaseUrl: "http://127.0.0.1:9",
  regulationsBaseUrl: "http://127.0.0.1:9",
  dojBaseUrl: "http://127.0.0.1:9",
  courtListenerBaseUrl: "http://127.0.0.1:9",
  // the feed reads the BIS charging-letters page: never the real bis.gov from a test
  enforcementCollection: {
    contact: Option.none(),
    bisBaseUrl: "http://127.0.0.1:9",
    ddtcBaseUrl: "http://127.0.0.1:9",
    spacingMillis: 0
  },
  cslBulkUrl: "http://127.0.0.1:9/consolidated.json",
  // every test client comes from 127.0.0.1: OAuth request and registration budgets are off unless a
  // test sets them (test/accounts/oauth-abuse.test.ts); the sign-in throttle keeps its defaults
  oauthLimits: {
    signInFreeAttempts: 10,
    signInAddressFreeAttempts: 30,
    signInFirstDelaySeconds: 1,
    signInMaxDelaySeconds: 900,
    signInWindowSeconds: 3600,
    requestsPerMinute: 0,
    registrationsPerHourPerAddress: 0,
    registrationsPerHour: 0,
    maxClients: 5000,
    unusedClientHours: 24
  },
  ...overrides
})

/**
 * Starts the real Node server (the same layers `npm start` uses) on a free loopback port.
 * `app` replaces the app layer when a test needs different services.
 */
export const startServer = async (options: {
  readonly config?: Partial<AppConfigShape>
  readonly app?: Layer.Layer<never, unknown, any>
  /** The SQL store of the default app (the fresh in-memory test store unless given). */
  readonly store?: StoreLayer
} = {}): Promise<RunningServer> => {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  // as in the environment, AUTH_URL defaults to the public base URL
  const config = testConfig({ port, publicBaseUrl: base, authUrl: base, ...options.config })
  const scope = Effect.runSync(Scope.make())
  const layer = NodeServer.serve(options.app ?? appLayer(`node ${process.version}`, options.store ?? testStore)).pipe(
    Layer.provide(AppConfig.layerWith(config))
  )
  await Effect.runPromise(Layer.buildWithScope(layer, scope) as Effect.Effect<unknown, unknown>)
  const url = `http://127.0.0.1:${port}`
  return {
    url,
    get: (path, init) => fetch(`${url}${path}`, init),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}
