import { FetchHttpClient } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Layer } from "effect"
import { AppRoutes } from "../../src/http/App.ts"
import { forRuntime } from "../../src/layers/Main.ts"
import { PublicServices } from "../../src/layers/Public.ts"
import * as Catalog from "../../src/mcp/Catalog.ts"
import { productionResources, productionTools } from "../../src/mcp/ToolCatalog.ts"
import * as Auth from "../../src/services/Auth.ts"
import * as DataGeneration from "../../src/services/DataGeneration.ts"
import * as Screening from "../../src/services/Screening.ts"
import { callTool } from "../support/mcp/McpTestApp.ts"
import { principals } from "../support/Principals.ts"
import { fixedRegulatoryStatus, fixtureText, suspendedAffiliatesRule } from "../support/ScreeningApp.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"
import { testStore } from "../support/TestStore.ts"

/** search_csl and `GET /api/csl` over one fixture list: the tool answers what the endpoint answers. */
describe("MCP search_csl", () => {
  let server: RunningServer
  beforeAll(async () => {
    const screening = Screening.layerFromText(fixtureText).pipe(
      Layer.provide(
        Layer.mergeAll(DataGeneration.layer, fixedRegulatoryStatus(suspendedAffiliatesRule), FetchHttpClient.layer)
      )
    )
    // a catalogue of its own: the shared one is memoized with the live screening service
    const catalog = Catalog.layer({ tools: productionTools, resources: productionResources })
    const overrides = Layer.mergeAll(Auth.layerFixed(principals), catalog.pipe(Layer.provideMerge(screening)))
    server = await startServer({
      app: forRuntime(AppRoutes.pipe(Layer.provide(overrides), Layer.provide(PublicServices)), "node test", testStore)
    })
  })
  afterAll(() => server.close())

  it("answers the REST screening response for the same request", async () => {
    const { result } = await callTool(server, "search_csl", { name: "Rustam Karimoff", sources: ["SDN"], size: 5 })
    expect(result.isError, result.content[0].text).toBeUndefined()
    const rest = await (await server.get("/api/csl?name=Rustam%20Karimoff&sources=SDN&size=5")).json()
    expect(result.structuredContent).toEqual(rest)
    expect(result.structuredContent.result).toBe("potential_match")
    expect(result.structuredContent.affiliates_rule).toBeDefined()
  })

  it("reports invalid requests as tool errors", async () => {
    const { result } = await callTool(server, "search_csl", { name: "", sources: ["NOPE"] })
    expect(result.isError).toBe(true)
    expect(result.content[0].text).toMatch(/^Invalid arguments: /)
  })
})
