/**
 * Examples of the screening answers shown by the OpenAPI document, as the service answered them
 * over the Consolidated Screening List of 2026-07-31 (the project's reference copy) with the
 * regulatory status of 2026-11-26; lists cut to their first entries.
 */
import { regulatoryStatus } from "./RegulatoryStatus.ts"

export const screeningResponse = {
  "query": {
    "name": "Huawei Technologies Co., Ltd.",
    "fuzzy_name": true,
    "sources": [
      "EL"
    ],
    "countries": null,
    "type": null,
    "country": "CN",
    "id": null,
    "min_score": 85,
    "size": 1,
    "offset": 0
  },
  "total": 8,
  "result": "potential_match",
  "lists": [
    {
      "code": "EL",
      "name": "Entity List (EL) - Bureau of Industry and Security",
      "entries": 3420,
      "source_last_updated": "2026-07-31T13:15:00+00:00",
      "last_imported": "2026-07-31T13:15:00.015113+00:00"
    }
  ],
  "dataset": {
    "published_at": "2026-07-31T13:15:00.015113+00:00",
    "loaded_at": "2026-11-26T06:00:04.218Z",
    "entries": 25921,
    "stale": false
  },
  "matches": [
    {
      "id": "d39cedb3c858f0854bb219b12b242575696b55fa06157d354692d967",
      "name": "Huawei Technologies Co., Ltd. (Huawei)",
      "matched_name": "Huawei Technologies Co., Ltd. (Huawei)",
      "matched_name_kind": "name",
      "match_type": "name",
      "matched_id": null,
      "field_agreement": {
        "country": "agrees",
        "type": null,
        "name_score": 100,
        "adjustment": 0
      },
      "score": 100,
      "source": "Entity List (EL) - Bureau of Industry and Security",
      "source_code": "EL",
      "type": null,
      "programs": [],
      "alt_names": [
        "Shenzhen Huawei Technologies",
        "Huawei Technology"
      ],
      "countries": [
        "CN"
      ],
      "addresses": [
        {
          "address": null,
          "city": null,
          "state": null,
          "postal_code": null,
          "country": "CN"
        }
      ],
      "ids": [],
      "remarks": null,
      "title": null,
      "dates_of_birth": [],
      "places_of_birth": [],
      "nationalities": [],
      "citizenships": [],
      "federal_register_notice":
        "84 FR 22963, 84 FR 43495, 85 FR 29853, 85 FR 36720,  85 FR 51603, 86 FR 71559, 87 FR 6026, 87 FR 8182, 87 FR 21012, 87 FR 55250",
      "start_date": null,
      "end_date": null,
      "license_requirement": "For all items subject to the EAR, see §§ 734.9(e)1 and 744.11 of the EAR2",
      "license_policy": "Presumption of denial",
      "vessel": null,
      "source_list_url": "https://www.bis.gov/regulations/ear/744#supplement-4-744",
      "source_information_url":
        "https://www.bis.gov/licensing/guidance-on-end-user-and-end-use-controls-and-us-person-controls",
      "explanation": {
        "alignment": [
          {
            "query": "huawei technologies",
            "listed": "huawei technologies",
            "kind": "exact",
            "similarity": 1,
            "weight": 0.97
          },
          {
            "query": "co ltd",
            "listed": "co ltd",
            "kind": "legal_form",
            "similarity": 1,
            "weight": 0.2
          }
        ],
        "reordered": false
      }
    }
  ],
  "name_contained": {
    "match_type": "name_contained",
    "words": [
      "huawei",
      "technologies"
    ],
    "total": 55,
    "too_broad": false,
    "matches": [
      {
        "id": "2f7e3c523ef57c0fb9c212d92d10104b47b519259d459e08ea810491",
        "name": "Huawei Technologies Investment Co. Ltd.",
        "matched_name": "Huawei Technologies Investment Co. Ltd.",
        "matched_name_kind": "name",
        "match_type": "name",
        "matched_id": null,
        "field_agreement": null,
        "score": 92.1,
        "source": "Entity List (EL) - Bureau of Industry and Security",
        "source_code": "EL",
        "type": null,
        "programs": [],
        "alt_names": [],
        "countries": [
          "JO"
        ],
        "addresses": [
          {
            "address": null,
            "city": null,
            "state": null,
            "postal_code": null,
            "country": "JO"
          }
        ],
        "ids": [],
        "remarks": null,
        "title": null,
        "dates_of_birth": [],
        "places_of_birth": [],
        "nationalities": [],
        "citizenships": [],
        "federal_register_notice": "84 FR 22963, 85 FR 29852, 85 FR 36720, 85 FR 51603, 87 FR 6026, 87 FR 55250",
        "start_date": null,
        "end_date": null,
        "license_requirement": "For all items subject to the EAR, see §§ 734.9(e)1, and 744.11 of the EAR2",
        "license_policy": "Presumption of denial",
        "vessel": null,
        "source_list_url": "https://www.bis.gov/regulations/ear/744#supplement-4-744",
        "source_information_url":
          "https://www.bis.gov/licensing/guidance-on-end-user-and-end-use-controls-and-us-person-controls",
        "explanation": {
          "alignment": [
            {
              "query": "huawei technologies",
              "listed": "huawei technologies",
              "kind": "exact",
              "similarity": 1,
              "weight": 0.97
            },
            {
              "query": "co ltd",
              "listed": "co ltd",
              "kind": "legal_form",
              "similarity": 1,
              "weight": 0.2
            },
            {
              "query": null,
              "listed": "investment",
              "kind": "dropped",
              "similarity": 0,
              "weight": 0.1
            }
          ],
          "reordered": false
        }
      }
    ]
  },
  "affiliates_rule": {
    // the same state as the regulatory-status answer of that day, plus what a screen adds
    ...regulatoryStatus.affiliates_rule,
    "owned_entities":
      "In force: a foreign entity owned 50% or more, directly or indirectly, individually or in the aggregate, by parties on the Entity List or the Military End-User List (or by certain SDN-listed parties) carries the same EAR license requirements as its listed owners even though its own name is on no list. A name screen cannot see ownership, so no_match does not clear such a subsidiary. Separately, OFAC's 50 Percent Rule treats any entity owned 50% or more, directly or indirectly, individually or in the aggregate, by blocked persons (e.g. SDN-listed parties) as blocked even when it is not listed itself.",
    "name_contained":
      "An entry in name_contained is listed under a name that contains every identifying word of the query, however low it scored: typically a subsidiary, branch or affiliate of a listed group (\"Huawei Technologies (Bolivia) S.R.L.\" for \"Huawei\"). It is not a match for the party screened, but each is a listed party in its own right: if the party screened is one of them, owns one or is owned by one, the ownership rules above apply; check its addresses and identifiers against the party."
  },
  "ownership_trace": {
    "performed": false,
    "summary":
      "Only the name was compared with the Consolidated Screening List. Owners, parent companies, subsidiaries, directors and other related parties were not traced, so this result is not ownership due diligence.",
    "checks": [
      "Identify the party's direct and indirect owners, including ultimate beneficial owners, and screen each of them by name.",
      "Add up the shares that listed parties hold: 50% or more in aggregate by blocked persons makes the party blocked under OFAC's 50 Percent Rule, and by Entity List or MEU parties brings it under the Affiliates Rule while that rule is in force (see affiliates_rule).",
      "Where ownership by a listed party is known but its share cannot be determined, resolve that red flag before proceeding.",
      "Screen the other parties to the transaction (consignees, end users, agents, banks, vessels) and check the transaction for diversion red flags (15 CFR part 732, Supplement No. 3).",
      "Have a qualified person adjudicate every potential match against the list entry's identifiers, addresses, dates of birth and nationalities before deciding."
    ]
  },
  "disclaimer":
    "Name screening against the Consolidated Screening List only. A potential match is not a determination that the party is the listed person or entity, and no_match is not clearance: hits are for human adjudication. Not legal advice."
} as const

const { affiliates_rule, dataset, disclaimer, lists, ownership_trace } = screeningResponse
const [huawei] = screeningResponse.matches

export const batchRequest = {
  names: [{ name: "Huawei Technologies Co., Ltd.", country: "CN" }, "Zzyzx Quorble Widgets"],
  sources: ["EL" as const],
  size: 1
}

/** The CSV form of the batch request: a header row, then one party a line. */
export const batchCsv = "name,country\n\"Huawei Technologies Co., Ltd.\",CN\nZzyzx Quorble Widgets,\n"

export const batchResponse = {
  count: 2,
  potential_matches: 1,
  invalid: 0,
  query: { fuzzy_name: true, sources: ["EL" as const], countries: null, min_score: 85, size: 1, offset: 0 },
  lists,
  dataset,
  affiliates_rule,
  ownership_trace,
  disclaimer,
  results: [
    { line: 1, name: "Huawei Technologies Co., Ltd.", result: "potential_match" as const, total: 8, matches: [huawei] },
    { line: 2, name: "Zzyzx Quorble Widgets", result: "no_match" as const, total: 0, matches: [] }
  ]
}

/** A first recorded refresh: the baseline whose entries are not reported as added. */
export const listChanges = {
  since: "2026-07-01T00:00:00.000Z",
  refreshes: [{
    recorded_at: "2026-07-31T14:00:02.114Z",
    published_at: dataset.published_at,
    entries: dataset.entries,
    added: 0,
    changed: 0,
    removed: 0,
    baseline: true
  }],
  added: [],
  changed: [],
  removed: [],
  next_cursor: null
}
