import { Option } from "effect"
import { exportJWK, exportSPKI, generateKeyPair, type JWTPayload, SignJWT } from "jose"
import type { AppConfigShape, ServiceJwtConfig } from "../../src/services/AppConfig.ts"

export const issuer = "https://issuer.enclave.example"
export const audience = "urn:svc:enclave"

/** An enclave token issuer for tests: an RSA and an EC key, published as a JWKS with key ids. */
export const makeIssuer = async () => {
  const rsa = await generateKeyPair("RS256", { extractable: true })
  const ec = await generateKeyPair("ES256", { extractable: true })
  const stranger = await generateKeyPair("RS256", { extractable: true })
  const jwks = {
    keys: [
      { ...await exportJWK(rsa.publicKey), kid: "rsa-1", alg: "RS256", use: "sig" },
      { ...await exportJWK(ec.publicKey), kid: "ec-1", alg: "ES256", use: "sig" }
    ]
  }
  const sign = (
    claims: Record<string, unknown> = {},
    options: { readonly alg?: "RS256" | "ES256"; readonly kid?: string; readonly key?: CryptoKey } = {}
  ) => {
    const alg = options.alg ?? "RS256"
    const now = Math.floor(Date.now() / 1000)
    const payload = { iss: issuer, aud: audience, sub: "svc-caller", iat: now, exp: now + 300, ...claims }
    return new SignJWT({ svc_entitlements: ["mcp", "pdf"], ...payload })
      .setProtectedHeader({ alg, kid: options.kid ?? (alg === "RS256" ? "rsa-1" : "ec-1") })
      .sign(options.key ?? (alg === "RS256" ? rsa.privateKey : ec.privateKey))
  }
  return {
    jwks,
    sign,
    rsaPem: await exportSPKI(rsa.publicKey),
    rsa,
    stranger,
    config: (overrides: Partial<ServiceJwtConfig> = {}): ServiceJwtConfig => ({
      issuer: Option.some(issuer),
      audience,
      jwksUrl: Option.none(),
      publicKeys: Option.some(JSON.stringify(jwks)),
      algorithms: ["RS256", "ES256"],
      ...overrides
    })
  }
}

export const enclaveConfig = (serviceJwt: ServiceJwtConfig): Partial<AppConfigShape> => ({
  deployment: "enclave",
  serviceJwt
})

const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

/** A token with `alg: none` and no signature, claims otherwise valid. */
export const unsecured = (claims: JWTPayload) => {
  const now = Math.floor(Date.now() / 1000)
  return `${segment({ alg: "none", typ: "JWT" })}.${
    segment({
      iss: issuer,
      aud: audience,
      sub: "svc-caller",
      exp: now + 300,
      svc_entitlements: ["mcp", "pdf"],
      ...claims
    })
  }.`
}
