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
  title: "Record a screening decision",
  description: "Record a party screening in your workspace: the search_csl hits reviewed (by id), the decision " +
    "(clear, match, false_positive, escalated), the analyst, and optionally the ownership diligence and the " +
    "Affiliates-rule disposition. The list's publication time is stamped.",
  version: "1.0.0",
  enterprise: true,
  annotations: { ...writes("Record a screening decision"), idempotentHint: false },
  input: ScreeningInput,
  output: json(Screening),
  run: (input) =>
    inWorkspace((workspace) => Effect.flatMap(ScreeningRegistry, (store) => store.record(workspace, input)))
})

export const getPartyStatus = Tool.make({
  name: "get_party_status",
  title: "Screening status of a party",
  description: "The latest decision on a party in your workspace, its history, and whether it is due for " +
    "re-screening (the list changed since, or the interval passed). Names match ignoring case and punctuation.",
  version: "1.0.0",
  enterprise: true,
  annotations: reads("Screening status of a party"),
  input: PartyStatusParams,
  output: json(PartyStatus),
  run: (params) =>
    inWorkspace((workspace) => Effect.flatMap(ScreeningRegistry, (store) => store.partyStatus(workspace, params)))
})

export const listScreenings = Tool.make({
  name: "list_screenings",
  title: "List screenings",
  description: "Your workspace's screenings, newest first, optionally by decision: " +
    "`{ screenings, count, next_cursor }`.",
  version: "1.0.0",
  enterprise: true,
  annotations: reads("List screenings"),
  input: ScreeningListParams,
  output: json(ScreeningPage),
  run: (params) =>
    inWorkspace((workspace) => Effect.flatMap(ScreeningRegistry, (store) => store.list(workspace, params)))
})

export const screeningRegistryTools = [recordScreening, getPartyStatus, listScreenings] as const
