import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto"

/**
 * Bearer secrets (OAuth tokens, codes, client secrets) are `<prefix><id><secret>`: a random public
 * id (16 bytes) that finds the record, and a random secret (32 bytes) of which only the SHA-256 is
 * stored and compared in constant time. Both parts are base64url, so the length is fixed.
 */
const idLength = 22
const secretLength = 43
const body = /^[A-Za-z0-9_-]+$/

export interface IssuedSecret {
  /** What the holder receives; never stored or logged. */
  readonly value: string
  readonly id: string
  readonly hash: string
}

export const sha256 = (text: string): string => createHash("sha256").update(text).digest("base64url")

export const randomId = (bytes = 16): string => randomBytes(bytes).toString("base64url")

export const issueSecret = (prefix: string): IssuedSecret => {
  const id = randomId(16)
  const secret = randomId(32)
  return { value: `${prefix}${id}${secret}`, id, hash: sha256(secret) }
}

/** Splits a presented value into id and secret; undefined when it cannot be one of ours. */
export const parseSecret = (
  prefix: string,
  value: string
): { readonly id: string; readonly secret: string } | undefined => {
  if (value.length !== prefix.length + idLength + secretLength || !value.startsWith(prefix)) return undefined
  const rest = value.slice(prefix.length)
  if (!body.test(rest)) return undefined
  return { id: rest.slice(0, idLength), secret: rest.slice(idLength) }
}

export const constantTimeEqual = (a: string, b: string): boolean => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

export const secretMatches = (secret: string, storedHash: string): boolean =>
  constantTimeEqual(sha256(secret), storedHash)

/** RFC 7636 S256: BASE64URL(SHA256(ASCII(code_verifier))) compared with the stored challenge. */
export const pkceMatches = (verifier: string, challenge: string): boolean =>
  constantTimeEqual(sha256(verifier), challenge)

// scrypt at N=2^15, r=8, p=3 (about 32 MiB per hash), one of OWASP's equivalent recommended settings
const scryptParams = { N: 32768, r: 8, p: 3, maxmem: 64 * 1024 * 1024 }
const keyLength = 32

const derive = (password: string, salt: Buffer, params: typeof scryptParams) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, keyLength, params, (error, key) => error ? reject(error) : resolve(key))
  )

/** `scrypt$N$r$p$salt$key`, parameters kept with the hash so they can be raised later. */
export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16)
  const key = await derive(password, salt, scryptParams)
  const { N, p, r } = scryptParams
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`
}

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, N, r, p, salt, key] = stored.split("$")
  if (scheme !== "scrypt" || salt === undefined || key === undefined) return false
  const derived = await derive(password, Buffer.from(salt, "base64url"), {
    N: Number(N),
    r: Number(r),
    p: Number(p),
    maxmem: scryptParams.maxmem
  })
  return constantTimeEqual(derived.toString("base64url"), key)
}
