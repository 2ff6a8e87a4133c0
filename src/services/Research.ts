import type { HttpClient } from "@effect/platform"
import { Context, Effect, Layer, Option } from "effect"
import type { InvalidRequest } from "../domain/Problem.ts"
import type {
  CfrSearchParams,
  CfrSearchResponse,
  FederalRegisterDocumentNotFound,
  FederalRegisterDocumentResponse,
  FederalRegisterSearchParams,
  FederalRegisterSearchResponse,
  GovinfoSearchParams,
  GovinfoSearchResponse,
  RegulationsSearchParams,
  RegulationsSearchResponse,
  SecEdgarSearchParams,
  SecEdgarSearchResponse
} from "../domain/Research.ts"
import { AppConfig } from "./AppConfig.ts"
import * as EcfrSearch from "./research/EcfrSearch.ts"
import * as FederalRegister from "./research/FederalRegister.ts"
import * as Govinfo from "./research/Govinfo.ts"
import * as Regulations from "./research/Regulations.ts"
import * as SecEdgar from "./research/SecEdgar.ts"
import * as Upstream from "./Upstream.ts"

/**
 * Research searches over federal sources, one method per operation (the REST endpoints and MCP
 * tools bind to these). Every method is fail-soft: upstream trouble or missing configuration gives
 * an answer with empty `results` and an `error`, never a failure. Only caller mistakes fail.
 */
export interface ResearchShape {
  readonly searchFederalRegister: (params: FederalRegisterSearchParams) => Effect.Effect<FederalRegisterSearchResponse>
  /** `maxBodyChars` cuts the text (the MCP tool keeps about 40,000 characters). */
  readonly getFederalRegisterDocument: (
    documentNumber: string,
    options?: { readonly maxBodyChars?: number }
  ) => Effect.Effect<FederalRegisterDocumentResponse, FederalRegisterDocumentNotFound>
  /** The document a citation names (`90 FR 47201`, `FR Doc. 2025-19001`), as `getFederalRegisterDocument` answers it. */
  readonly federalRegisterByCitation: (
    citation: string,
    options?: { readonly maxBodyChars?: number }
  ) => Effect.Effect<FederalRegisterDocumentResponse, FederalRegisterDocumentNotFound>
  readonly searchSecEdgar: (params: SecEdgarSearchParams) => Effect.Effect<SecEdgarSearchResponse, InvalidRequest>
  /** The CFR-wide (all titles) eCFR search. */
  readonly searchEcfr: (params: CfrSearchParams) => Effect.Effect<CfrSearchResponse>
  readonly searchGovinfo: (params: GovinfoSearchParams) => Effect.Effect<GovinfoSearchResponse>
  readonly searchRegulations: (params: RegulationsSearchParams) => Effect.Effect<RegulationsSearchResponse>
}

export class Research extends Context.Tag("app/Research")<Research, ResearchShape>() {}

export type ClientPolicy = Pick<Upstream.UpstreamPolicy, "timeout" | "retries" | "breaker">

/** Research is interactive: a short timeout, one retry, and a breaker that pauses a failing upstream. */
export const defaultPolicy: ClientPolicy = {
  timeout: "8 seconds",
  retries: 1,
  breaker: { failures: 5, cooldownMillis: 30_000 }
}

export const makeWith = (policy: ClientPolicy) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    const client = (name: string, baseUrl: string, userAgent?: string) =>
      Upstream.make({ name, baseUrl, ...policy, ...(userAgent === undefined ? {} : { userAgent }) })

    const federalRegister = yield* FederalRegister.make(
      yield* client("federal-register", config.federalRegisterBaseUrl)
    )
    const edgar = yield* SecEdgar.make(
      yield* client("sec-edgar", config.secEdgarBaseUrl, Option.getOrUndefined(config.secEdgarUserAgent)),
      Option.isSome(config.secEdgarUserAgent)
    )
    const ecfr = yield* EcfrSearch.make(yield* client("ecfr-search", config.ecfrBaseUrl))
    const govinfo = yield* Govinfo.make(yield* client("govinfo", config.govinfoBaseUrl), config.dataGovApiKey)
    const regulations = yield* Regulations.make(
      yield* client("regulations-gov", config.regulationsBaseUrl),
      config.dataGovApiKey
    )

    return {
      searchFederalRegister: federalRegister.search,
      getFederalRegisterDocument: federalRegister.document,
      federalRegisterByCitation: federalRegister.byCitation,
      searchSecEdgar: edgar.search,
      searchEcfr: ecfr.search,
      searchGovinfo: govinfo.search,
      searchRegulations: regulations.search
    } satisfies ResearchShape
  })

export const make = makeWith(defaultPolicy)

export const layer: Layer.Layer<Research, never, AppConfig | HttpClient.HttpClient> = Layer.effect(Research, make)

/** The live service with another client policy (tests use short timeouts). */
export const layerWith = (policy: ClientPolicy): Layer.Layer<Research, never, AppConfig | HttpClient.HttpClient> =>
  Layer.effect(Research, makeWith(policy))
