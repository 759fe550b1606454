import type { FastifyRequest } from 'fastify';
import { appError } from '../errors.ts';
import { LIMITS } from '../limits.ts';
import { parseEntries } from '../screening/entries.ts';
import { addEntries, deleteEntry, listEntries, type ListOwner } from '../screening/suppression-repository.ts';
import type { AdminApp, AdminDeps } from './deps.ts';
import { agencyOf, agentOf, loadAgency, loadAgent } from './lookups.ts';
import { NoContent } from './schemas/common.ts';
import { AGENT, AUTH, answers, BODY, operation } from './schemas/errors.ts';
import {
  AddSuppressionsBody,
  AddSuppressionsResult,
  AgencySuppressionEntryParams,
  AgencySuppressionsParams,
  SuppressionEntryParams,
  SuppressionList,
  SuppressionsParams,
  SuppressionsQuery,
} from './schemas/suppressions.ts';

const AGENCY = [...AUTH, 'AGENCY_NOT_FOUND'] as const;

/**
 * Suppression lists (docs/compliance.md), an agent's and an agency's, with the same three routes:
 * add phones and emails, page through the entries, remove one. An agent key manages its own lists
 * and those of the agencies it is the fallback producer of; any other is a 404.
 */
export function registerSuppressionRoutes(app: AdminApp, deps: AdminDeps): void {
  const owners = [
    {
      path: '/agents/:agent_id/suppressions',
      name: 'Agent',
      whose: 'an agent’s',
      errors: AGENT,
      params: SuppressionsParams,
      entryParams: SuppressionEntryParams,
      load: loadAgent(deps.db),
      owner: (request: FastifyRequest): ListOwner => ({ agent_id: agentOf(request).agent_id }),
    },
    {
      path: '/agencies/:agency_id/suppressions',
      name: 'Agency',
      whose: 'an agency’s (it covers the leads of all its producers)',
      errors: [...AGENCY],
      params: AgencySuppressionsParams,
      entryParams: AgencySuppressionEntryParams,
      load: loadAgency(deps.db),
      owner: (request: FastifyRequest): ListOwner => ({ agency_id: agencyOf(request).agency_id }),
    },
  ];
  for (const o of owners) {
    app.post(
      o.path,
      {
        preValidation: o.load,
        schema: {
          ...operation(`add${o.name}Suppressions`, `Add phones and emails to ${o.whose} suppression list`),
          params: o.params,
          body: AddSuppressionsBody,
          response: answers({ 200: AddSuppressionsResult }, [...o.errors, ...BODY]),
        },
      },
      async (request) => {
        const { list, phones, emails } = request.body;
        if ((phones?.length ?? 0) + (emails?.length ?? 0) > LIMITS.suppressionsPerRequest) {
          throw appError(
            'VALIDATION_ERROR',
            `phones and emails: at most ${LIMITS.suppressionsPerRequest} in all per request`,
          );
        }
        const parsed = parseEntries({ phones, emails });
        if (!parsed.ok) throw appError('VALIDATION_ERROR', `${parsed.field} must be ${parsed.expected}`);
        const owner = o.owner(request);
        const counts = await deps.db.withTransaction((tx) => addEntries(tx, owner, list, parsed.values));
        return { list, ...counts };
      },
    );

    app.get(
      o.path,
      {
        preValidation: o.load,
        schema: {
          ...operation(
            `list${o.name}Suppressions`,
            `The entries of ${o.whose} suppression lists, by list and value`,
          ),
          params: o.params,
          querystring: SuppressionsQuery,
          response: answers({ 200: SuppressionList }, [...o.errors, 'VALIDATION_ERROR']),
        },
      },
      async (request) => {
        const { list, limit, cursor } = request.query;
        const n = limit ? Number(limit) : LIMITS.suppressionsPageDefault;
        if (!Number.isSafeInteger(n) || n < 1) {
          throw appError(
            'VALIDATION_ERROR',
            `limit must be an integer from 1 to ${LIMITS.suppressionsPageMax}`,
          );
        }
        const page = await listEntries(deps.db, o.owner(request), {
          ...(list ? { list } : {}),
          limit: Math.min(n, LIMITS.suppressionsPageMax),
          ...(cursor ? { cursor: decodeCursor(cursor) } : {}),
        });
        return {
          entries: page.entries,
          next_cursor: page.next_cursor && encodeCursor(page.next_cursor),
        };
      },
    );

    app.delete(
      `${o.path}/:list/:entry`,
      {
        preValidation: o.load,
        schema: {
          ...operation(
            `delete${o.name}Suppression`,
            `Remove one phone or email from ${o.whose} suppression list`,
          ),
          params: o.entryParams,
          response: answers({ 204: NoContent('Removed.') }, [...o.errors, 'VALIDATION_ERROR', 'NOT_FOUND']),
        },
      },
      async (request, reply) => {
        const { list, entry } = request.params;
        const parsed = parseEntries(entry.includes('@') ? { emails: [entry] } : { phones: [entry] });
        if (!parsed.ok) throw appError('VALIDATION_ERROR', `entry must be a phone or an email`);
        const [value] = parsed.values;
        const owner = o.owner(request);
        const gone =
          value !== undefined && (await deps.db.withTransaction((tx) => deleteEntry(tx, owner, list, value)));
        if (!gone) throw appError('NOT_FOUND', `${entry} is not on the ${list} list`);
        return reply.code(204).send();
      },
    );
  }
}

function encodeCursor(c: { list: string; value: string }): string {
  return Buffer.from(`${c.list}|${c.value}`, 'utf8').toString('base64url');
}

function decodeCursor(text: string): { list: string; value: string } {
  const [list, value, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (!list || !value || rest.length > 0) {
    throw appError('VALIDATION_ERROR', 'cursor is not a next_cursor this API returned');
  }
  return { list, value };
}
