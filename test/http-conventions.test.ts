import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Validator } from "@seriousme/openapi-schema-validator"
import { type RunningServer, startServer } from "./support/TestServer.ts"

describe("HTTP conventions", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server.close())

  const expectStandardHeaders = (response: Response) => {
    expect(response.headers.get("api-version")).toBe("2.3.0")
    expect(response.headers.get("x-content-type-options")).toBe("nosniff")
    expect(response.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._:-]{1,128}$/)
  }

  it("every response carries API-Version, X-Request-Id and nosniff, errors included", async () => {
    for (const [path, method] of [["/", "GET"], ["/nope", "GET"], ["/health", "DELETE"], ["/api/classify/x", "POST"]]) {
      expectStandardHeaders(await server.get(path!, { method: method! }))
    }
  })

  it("echoes a well-formed edge ray id or request id, and replaces a malformed one", async () => {
    const ray = await server.get("/", { headers: { "cf-ray": "8f1c2a3b4c5d6e7f-IAD" } })
    expect(ray.headers.get("x-request-id")).toBe("8f1c2a3b4c5d6e7f-IAD")
    const id = await server.get("/nope", { headers: { "x-request-id": "client-req-42" } })
    expect(id.headers.get("x-request-id")).toBe("client-req-42")
    expect((await id.json()).instance).toBe("client-req-42")
    const bad = await server.get("/", { headers: { "x-request-id": "<script>" } })
    expect(bad.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("cacheable GETs carry Cache-Control and a weak ETag, and a matching If-None-Match gives 304", async () => {
    const first = await server.get("/")
    const etag = first.headers.get("etag")!
    expect(first.headers.get("cache-control")).toBe("public, max-age=3600, stale-while-revalidate=86400")
    expect(etag).toMatch(/^W\/".+"$/)

    const revalidated = await server.get("/", { headers: { "if-none-match": etag } })
    expect(revalidated.status).toBe(304)
    expect(await revalidated.text()).toBe("")
    expect(revalidated.headers.get("etag")).toBe(etag)
    expect(revalidated.headers.get("cache-control")).toBe("public, max-age=3600, stale-while-revalidate=86400")
    expectStandardHeaders(revalidated)

    const strongForm = await server.get("/", { headers: { "if-none-match": `"x", ${etag.slice(2)}` } })
    expect(strongForm.status).toBe(304)
    const other = await server.get("/", { headers: { "if-none-match": "W/\"something-else\"" } })
    expect(other.status).toBe(200)
  })

  it("/health is never cached", async () => {
    const response = await server.get("/health")
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(response.headers.get("etag")).toBeNull()
  })

  it("unknown paths answer a 404 problem document", async () => {
    const response = await server.get("/api/does-not-exist?x=1")
    expect(response.status).toBe(404)
    expect(response.headers.get("content-type")).toBe("application/problem+json")
    const body = await response.json()
    expect(body).toMatchObject({
      type: `${server.url}/problems/not-found`,
      title: "Not found",
      status: 404,
      instance: response.headers.get("x-request-id")
    })
    expect(typeof body.detail).toBe("string")
  })

  it("a wrong method answers 405 with Allow", async () => {
    const response = await server.get("/health", { method: "POST" })
    expect(response.status).toBe(405)
    expect(response.headers.get("allow")).toBe("GET, HEAD")
    const body = await response.json()
    expect(body.allow).toEqual(["GET", "HEAD"])
    expect(body.type).toBe(`${server.url}/problems/method-not-allowed`)
  })

  it("removed endpoints answer 410 to every method with deprecation headers and migration guidance", async () => {
    for (
      const [path, method] of [
        ["/api/classify", "GET"],
        ["/api/classify/jobs/123", "POST"],
        ["/api/expert-review/queue", "DELETE"],
        ["/api/expert-review", "PUT"]
      ]
    ) {
      const response = await server.get(path!, { method: method! })
      expect(response.status, `${method} ${path}`).toBe(410)
      expect(response.headers.get("deprecation")).toBe("true")
      expect(response.headers.get("link")).toBe(`<${server.url}/docs>; rel="deprecation"`)
      const body = await response.json()
      expect(body.status).toBe(410)
      expect(body.migration.skill).toBe("svc-classify")
      expect(body.migration.endpoints).toContain("GET /api/eccn/{eccn}")
    }
  })

  it("problem types are dereferenceable", async () => {
    const response = await server.get("/problems/method-not-allowed")
    expect(await response.json()).toMatchObject({ status: 405, title: "Method not allowed" })
    expect((await server.get("/problems/no-such-type")).status).toBe(404)
  })

  it("/openapi.json is a valid OpenAPI 3.1 document of the free surface", async () => {
    const response = await server.get("/openapi.json")
    const document = await response.json()
    expect(document.openapi).toMatch(/^3\.1\./)
    expect(document.info.version).toBe("2.3.0")
    expect(document.servers).toEqual([{ url: server.url }])
    const validator = new Validator()
    const result = await validator.validate(document)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(Object.keys(document.paths)).toContain("/api/regulatory-status")
    expect(document.components.schemas.HttpApiDecodeError).toBeUndefined()
    const health = document.paths["/health"].get
    expect(health.responses["400"].content["application/problem+json"].schema.$ref).toBe(
      "#/components/schemas/InvalidRequest"
    )
  })

  it("serves the interactive API reference at the index's docs URL", async () => {
    const index = await (await server.get("/")).json()
    const response = await fetch(index.docs)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("text/html")
    const html = await response.text()
    expect(html).toContain("api-reference")
    expect(html).toContain("/api/regulatory-status")
  })

  it("the index directory is generated from the routes", async () => {
    const index = await (await server.get("/")).json()
    const lines: Array<string> = Object.values(index.endpoints).flat() as Array<string>
    for (const line of lines) expect(line).toMatch(/^(GET|POST|PUT|PATCH|DELETE|\*) \/\S* — .+/)
    expect(index.endpoints.ecfr.some((line: string) => line.startsWith("GET /api/regulatory-status — "))).toBe(true)
    expect(lines.some((line) => line.includes("/api/classify"))).toBe(false)
  })
})
