import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import {
  CfrSearchResponse,
  FederalRegisterDocumentResponse,
  FederalRegisterSearchResponse,
  GovinfoSearchResponse,
  RegulationsSearchResponse,
  SecEdgarSearchResponse
} from "../../domain/Research.ts"
import { Research } from "../../services/Research.ts"
import { Api } from "../Api.ts"
import { hasError, noStoreWhenDegraded } from "../SoftAnswer.ts"

export const ResearchHttpLive = HttpApiBuilder.group(Api, "research", (handlers) =>
  Effect.gen(function*() {
    const research = yield* Research
    return handlers
      .handle("federalRegister", ({ urlParams }) =>
        research.searchFederalRegister(urlParams).pipe(
          Effect.flatMap(noStoreWhenDegraded(FederalRegisterSearchResponse, hasError))
        ))
      .handle("federalRegisterDocument", ({ path }) =>
        research.getFederalRegisterDocument(path.document_number).pipe(
          Effect.flatMap(noStoreWhenDegraded(FederalRegisterDocumentResponse, hasError))
        ))
      .handle("secEdgar", ({ urlParams }) =>
        research.searchSecEdgar(urlParams).pipe(Effect.flatMap(noStoreWhenDegraded(SecEdgarSearchResponse, hasError))))
      .handle("cfrSearch", ({ urlParams }) =>
        research.searchEcfr(urlParams).pipe(Effect.flatMap(noStoreWhenDegraded(CfrSearchResponse, hasError))))
      .handle("govinfo", ({ urlParams }) =>
        research.searchGovinfo(urlParams).pipe(Effect.flatMap(noStoreWhenDegraded(GovinfoSearchResponse, hasError))))
      .handle("regulations", ({ urlParams }) =>
        research.searchRegulations(urlParams).pipe(
          Effect.flatMap(noStoreWhenDegraded(RegulationsSearchResponse, hasError))
        ))
  }))
