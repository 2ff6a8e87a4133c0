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
