import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { newDataDir, publicAppWithProbe, registerClient } from "../support/OAuthDriver.ts"
import { type RunningServer, startServer } from "../support/TestServer.ts"

/**
 * A redirect URI holding a line break, tab, space or bidirectional mark was registered as written,
 * matched as written at /oauth/authorize, and then redirected to as the URL parser repairs it:
 * "https://app.example/cb\nx" sent the browser to https://app.example/cbx, a URI nobody registered.
 * Redirect URIs are URIs (RFC 3986): printable ASCII only.
 */
describe("redirect URIs with characters no URI holds", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ config: { dataDir: await newDataDir() }, app: publicAppWithProbe })
  })
  afterAll(() => server.close())

  it.each([
    ["a line break", "https://app.example/cb\nx"],
    ["a carriage return and header text", "https://app.example/cb\r\nSet-Cookie: a=b"],
    ["a tab", "https://app.example/c\tb"],
    ["a space", "https://app.example/cb x"],
    ["a right-to-left override", "https://app.example/\u202ebc"],
    ["a line separator", "https://app.example/cb\u2028"],
    ["a non-ASCII letter", "https://app.example/caf\u00e9"]
  ])("refuses %s", async (_case, uri) => {
    const { body, status } = await registerClient(server.url, {
      redirect_uris: [uri],
      token_endpoint_auth_method: "none"
    })
    expect(status).toBe(400)
    expect(body.error).toBe("invalid_redirect_uri")
  })

  it("still registers percent-encoded forms", async () => {
    const { body, status } = await registerClient(server.url, {
      redirect_uris: ["https://app.example/caf%C3%A9?x=a%20b"],
      token_endpoint_auth_method: "none"
    })
    expect(status).toBe(201)
    expect(body.redirect_uris).toEqual(["https://app.example/caf%C3%A9?x=a%20b"])
  })
})

/**
 * The consent page shows the client's self-declared name. A right-to-left override in it reversed
 * the text after it on the page ("Claude Desktop \u202egro.live" reads as "Claude Desktop evil.org"),
 * and control or invisible characters made a name look like another.
 */
describe("client names with control, invisible or bidirectional characters", () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ config: { dataDir: await newDataDir() }, app: publicAppWithProbe })
  })
  afterAll(() => server.close())

  it.each([
    ["a right-to-left override", "Claude Desktop \u202egro.live\u202c"],
    ["a right-to-left isolate", "Claude \u2067Desktop\u2069"],
    ["a zero-width space", "Cla\u200bude"],
    ["a line break", "Claude\nDesktop"],
    ["a NUL", "Claude\u0000"]
  ])("refuses %s in client_name", async (_case, name) => {
    const { body, status } = await registerClient(server.url, {
      client_name: name,
      redirect_uris: ["https://app.example/cb"],
      token_endpoint_auth_method: "none"
    })
    expect(status).toBe(400)
    expect(body.error).toBe("invalid_client_metadata")
  })

  it("refuses them in software_id and software_version too, and keeps other scripts", async () => {
    for (const field of ["software_id", "software_version"]) {
      const { status } = await registerClient(server.url, {
        [field]: "1.0\u202e",
        redirect_uris: ["https://app.example/cb"],
        token_endpoint_auth_method: "none"
      })
      expect(status).toBe(400)
    }
    const { body, status } = await registerClient(server.url, {
      client_name: "Ассистент Café 助手",
      redirect_uris: ["https://app.example/cb"],
      token_endpoint_auth_method: "none"
    })
    expect(status).toBe(201)
    expect(body.client_name).toBe("Ассистент Café 助手")
  })
})
