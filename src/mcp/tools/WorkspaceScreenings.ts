import { Effect } from "effect"
import {
  PartyStatus,
  PartyStatusParams,
  Screening,
  ScreeningInput,
  ScreeningListParams,
  ScreeningPage
} from "../../domain/workspace/Screenings.ts"
import { ScreeningRegistry } from "../../services/workspace/ScreeningRegistry.ts"
import * as Tool from "../Tool.ts"
import { inWorkspace, json, reads, writes } from "./WorkspaceTool.ts"

/** Enterprise, MCP only: the screening registry of the caller's workspace (party names never reach a URL or a log). */
export const recordScreening = Tool.make({
  name: "record_screening",
  title: "Record screening",
  description: "Record a screening decision with the search_csl hit ids reviewed, ownership and Affiliates-rule " +
    "disposition.",
  version: "1.0.0",
  enterprise: true,
  annotations: { ...writes("Record screening"), idempotentHint: false },
  input: ScreeningInput,
  output: json(Screening),
  run: (input) =>
    inWorkspace((workspace) => Effect.flatMap(ScreeningRegistry, (store) => store.record(workspace, input)))
})

export const getPartyStatus = Tool.make({
  name: "get_party_status",
  title: "Party status",
  description: "A party's latest decision, history and whether a re-screen is due.",
  version: "1.0.0",
  enterprise: true,
  annotations: reads("Party status"),
  input: PartyStatusParams,
  output: json(PartyStatus),
  run: (params) =>
    inWorkspace((workspace) => Effect.flatMap(ScreeningRegistry, (store) => store.partyStatus(workspace, params)))
})

export const listScreenings = Tool.make({
  name: "list_screenings",
  title: "List screenings",
  description: "Screenings, newest first: `{ screenings, count, next_cursor }`.",
  version: "1.0.0",
  enterprise: true,
  annotations: reads("List screenings"),
  input: ScreeningListParams,
  output: json(ScreeningPage),
  run: (params) =>
    inWorkspace((workspace) => Effect.flatMap(ScreeningRegistry, (store) => store.list(workspace, params)))
})

export const screeningRegistryTools = [recordScreening, getPartyStatus, listScreenings] as const
