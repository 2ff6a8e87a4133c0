import type { IncomingMessage } from "node:http"
import { type FakeUpstream, json, startFakeUpstream } from "../FakeUpstream.ts"

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ""
    request.on("data", (chunk) => (text += chunk))
    request.on("end", () => resolve(text))
  })

/**
 * A loopback OAuth 2.1 authorization server that approves every request: RFC 8414 metadata,
 * dynamic client registration, an authorization endpoint that redirects straight back with a
 * code and `iss`, and a token endpoint issuing `accessToken`. It stands in for the real server so
 * tests can drive the MCP clients' whole 401 → metadata → token flow against our resource server.
 */
export const startFakeAuthorizationServer = async (accessToken: string): Promise<FakeUpstream> => {
  const server = await startFakeUpstream()
  const issuer = server.url
  server.route(async (request, url) => {
    if (url.pathname.startsWith("/.well-known/oauth-authorization-server")) {
      return json({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
        authorization_response_iss_parameter_supported: true
      })
    }
    if (url.pathname === "/register" && request.method === "POST") {
      const metadata = JSON.parse(await readBody(request))
      return json({ ...metadata, client_id: "client-e2e", client_id_issued_at: 1_790_000_000 }, 201)
    }
    if (url.pathname === "/authorize") {
      const redirect = new URL(url.searchParams.get("redirect_uri")!)
      redirect.searchParams.set("code", "code-e2e")
      redirect.searchParams.set("iss", issuer)
      const state = url.searchParams.get("state")
      if (state !== null) redirect.searchParams.set("state", state)
      return { status: 302, headers: { location: redirect.toString() } }
    }
    if (url.pathname === "/token" && request.method === "POST") {
      await readBody(request)
      return json({ access_token: accessToken, token_type: "Bearer", expires_in: 3600 })
    }
    return undefined
  })
  return server
}

/** A headless OAuth client provider for the MCP SDKs: registers, "visits" the authorize URL, keeps tokens. */
export class HeadlessOAuthProvider {
  client: any
  tokenSet: any
  verifier: string | undefined
  callbackUrl: URL | undefined
  discovery: any
  get redirectUrl() {
    return "http://127.0.0.1:9/callback"
  }
  get clientMetadata() {
    return {
      client_name: "e2e",
      redirect_uris: [this.redirectUrl],
      response_types: ["code"],
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none"
    }
  }
  clientInformation() {
    return this.client
  }
  saveClientInformation(client: unknown) {
    this.client = client
  }
  tokens() {
    return this.tokenSet
  }
  saveTokens(tokens: unknown) {
    this.tokenSet = tokens
  }
  codeVerifier() {
    return this.verifier!
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  discoveryState() {
    return this.discovery
  }
  saveDiscoveryState(state: unknown) {
    this.discovery = state
  }
  async redirectToAuthorization(url: URL) {
    const response = await fetch(url, { redirect: "manual" })
    this.callbackUrl = new URL(response.headers.get("location")!)
  }
}
