// Who a request to the backend belongs to, the same in every remote exporter: the batch's project
// in a tenant header (X-Scope-OrgID for Tempo, Loki and Mimir), a bearer token per project for a
// next otelgate, and headers taken from the client's request metadata (the Collector's
// headers_setter). The helper partitions batches by those metadata headers, so one request never
// carries two tenants' data.
import Type, { type Static } from 'typebox';
import type { SettingsProblem } from '../../runtime/component.js';
import type { Outgoing } from './queued-exporter.js';

export const tenancyProperties = {
  tenant: Type.Optional(
    Type.Object(
      {
        header: Type.Optional(
          Type.String({ minLength: 1, description: 'Send each batch\'s project in this header: X-Scope-OrgID is what Tempo, Loki and Mimir read as the tenant.' }),
        ),
        bearer_tokens: Type.Record(Type.String({ minLength: 1 }), Type.String({ minLength: 1 }), {
          default: {},
          description:
            'Project → API key to send a batch of that project with (Authorization: Bearer), for a next otelgate whose keys decide the project. Write the keys as ${env:VAR}. A batch of a project not listed is sent with the configured headers alone.',
        }),
      },
      { additionalProperties: false },
    ),
  ),
  metadata_headers: Type.Array(
    Type.Object(
      {
        key: Type.String({ minLength: 1, description: 'The header to send.' }),
        from_context: Type.String({ minLength: 1, description: 'The request header (kept by the receiver\'s include_metadata) whose value it takes, by name.' }),
        default_value: Type.Optional(Type.String({ description: 'Sent when the request had no such header; without it, no header is sent then.' })),
      },
      { additionalProperties: false },
    ),
    {
      default: [],
      description: 'Headers taken from each batch\'s request metadata, as the Collector\'s headers_setter extension does; batches are never merged across different values of them.',
    },
  ),
};

const tenancySchema = Type.Object(tenancyProperties);
export type TenancyConfig = Static<typeof tenancySchema>;

/** A metadata header can't be one that says who the data belongs to: a client could choose it. */
export function validateTenancy(config: TenancyConfig): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  const fixed = new Set(['authorization', ...(config.tenant?.header === undefined ? [] : [config.tenant.header.toLowerCase()])]);
  config.metadata_headers.forEach(({ key }, index) => {
    if (fixed.has(key.toLowerCase())) problems.push({ path: ['metadata_headers', index, 'key'], message: `"${key}" is set by tenant (or is Authorization): a client must not choose it; use another header, or drop tenant` });
  });
  return problems;
}

export interface Tenancy {
  /** The request metadata (lower-case header names) to partition batches by: RemoteExporterSpec.partitionBy. */
  partitionBy: readonly string[];
  /** The headers of one request: its tenant, its project's key, and those taken from its request's metadata. */
  headers(out: Outgoing): Record<string, string>;
}

export function tenancy(config: TenancyConfig): Tenancy {
  const fromMetadata = config.metadata_headers.map((h) => ({ key: h.key, from: h.from_context.toLowerCase(), fallback: h.default_value }));
  return {
    partitionBy: fromMetadata.map((h) => h.from),
    headers(out) {
      const headers: Record<string, string> = {};
      const tenant = config.tenant;
      if (tenant?.header !== undefined) headers[tenant.header] = out.project;
      const token = tenant?.bearer_tokens[out.project];
      if (token !== undefined) headers['authorization'] = `Bearer ${token}`;
      for (const { key, from, fallback } of fromMetadata) {
        const value = out.client.metadata[from]?.[0] ?? fallback;
        if (value !== undefined) headers[key] = value;
      }
      return headers;
    },
  };
}
