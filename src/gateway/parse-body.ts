import { isUtf8 } from 'node:buffer';
import { XMLParser } from 'fast-xml-parser';
import { LIMITS } from '../limits.ts';
import { bracketDepth, countMembers, duplicateKeys } from '../ingest/envelopes/read-json.ts';
import type { FieldWarning } from '../ingest/types.ts';
import { defineOwn, isJsonObject, type JsonObject, type JsonValue } from '../json.ts';

export type ParsedBody =
  | { ok: true; body: JsonObject; warnings: FieldWarning[] }
  | { ok: false; code: 'INVALID_JSON' | 'PAYLOAD_TOO_LARGE'; details: string };

/** A body read whole, with what reading it changed (none in most bodies). */
const read = (body: JsonObject, warnings: FieldWarning[] = []): ParsedBody => ({ ok: true, body, warnings });

const NOT_AN_OBJECT = 'The body must be a JSON object';

const refuse = (details: string): ParsedBody => ({ ok: false, code: 'INVALID_JSON', details });

/**
 * Reads a delivery body, whatever its Content-Type: `multipart/form-data` as a form with parts,
 * then the sync rules of parseDeliveryBody. Never throws.
 */
export async function readDeliveryBody(
  raw: Buffer | undefined,
  contentType: string | undefined,
): Promise<ParsedBody> {
  if (raw && /^\s*multipart\/form-data\b/i.test(contentType ?? '') && !looksLikeJson(raw)) {
    return checked(await parseMultipart(raw, contentType ?? ''));
  }
  return parseDeliveryBody(raw, contentType);
}

/**
 * Reads a delivery body. A body starting with `<` (or labelled XML) is XML and one starting with
 * `{` is JSON, whatever the Content-Type says (`curl -d` labels both as a form; senders that cannot
 * set headers send text/plain); otherwise an application/x-www-form-urlencoded body is a form. Each is held to the same limits: LIMITS.maxJsonDepth levels of nesting and
 * LIMITS.maxBodyMembers members. Pure: never throws.
 */
export function parseDeliveryBody(raw: Buffer | undefined, contentType: string | undefined): ParsedBody {
  const parsed = parseText(raw ? raw.toString('utf8').replace(/^\uFEFF/, '') : '', contentType ?? '');
  // Bytes that are not UTF-8 were read as U+FFFD: the lead is kept, and the sender is told.
  if (parsed.ok && raw && !isUtf8(raw)) parsed.warnings.unshift(NOT_UTF8);
  return checked(parsed);
}

const NOT_UTF8: FieldWarning = {
  field: 'body',
  code: 'INVALID_UTF8_REPLACED',
  message: 'The body is not valid UTF-8; the bytes that were not are stored as U+FFFD (\uFFFD)',
};

function parseText(text: string, type: string): ParsedBody {
  if (text.trim() === '') return refuse(`${NOT_AN_OBJECT}; the body is empty`);
  const start = text.trimStart()[0];
  // `curl -d @lead.xml` labels XML as a form: a body that starts with `<` is XML whatever the label.
  if (start === '<' || /^\s*(?:application|text)\/(?:[\w.+-]+\+)?xml\b/i.test(type)) return parseXml(text);
  const isForm = /^\s*application\/x-www-form-urlencoded\b/i.test(type);
  if (isForm && start !== '{') return read(parseForm(text));
  const json = parseJson(text);
  // A form that merely starts with `{` and is no JSON is still a form.
  if (!json.ok && isForm) return read(parseForm(text));
  return json;
}

function parseJson(text: string): ParsedBody {
  if (bracketDepth(text) > LIMITS.maxJsonDepth) {
    return refuse(`JSON nested deeper than ${LIMITS.maxJsonDepth} levels`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return refuse(err instanceof Error ? err.message : 'Unparseable JSON');
  }
  if (!isJsonObject(value)) return refuse(NOT_AN_OBJECT);
  return read(
    value,
    duplicateKeys(text).map((key) => ({
      field: key,
      code: 'DUPLICATE_KEY',
      message: `The key "${key}" is sent more than once in one object; its last value was kept`,
    })),
  );
}

function looksLikeJson(raw: Buffer): boolean {
  return raw
    .toString('utf8', 0, Math.min(raw.length, 64))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('{');
}

/** The body's members (keys and list items at every level) over the limit: refused as too large. */
function checked(parsed: ParsedBody): ParsedBody {
  if (!parsed.ok || countMembers(parsed.body, LIMITS.maxBodyMembers) <= LIMITS.maxBodyMembers) return parsed;
  return {
    ok: false,
    code: 'PAYLOAD_TOO_LARGE',
    details: `The body must have at most ${LIMITS.maxBodyMembers} members`,
  };
}

/**
 * A form body: repeated keys become arrays, `a[b]=c` becomes `{a: {b: "c"}}` (one level), so
 * `custom_fields[join_url]=…` and `tags=a&tags=b` work from plain HTML forms.
 */
export function parseForm(text: string): JsonObject {
  return formObject(new URLSearchParams(text));
}

function formObject(entries: Iterable<[string, string]>): JsonObject {
  const out: JsonObject = {};
  const put = (target: JsonObject, key: string, value: string) => {
    const existing = Object.hasOwn(target, key) ? target[key] : undefined;
    if (existing === undefined) defineOwn(target, key, value);
    else if (Array.isArray(existing)) existing.push(value);
    else defineOwn(target, key, [existing, value] as JsonValue);
  };
  for (const [key, value] of entries) {
    const nested = /^([^[\]]+)\[([^[\]]*)\]$/.exec(key);
    if (nested?.[1] && nested[2]) {
      const outer = nested[1];
      const current = Object.hasOwn(out, outer) ? out[outer] : undefined;
      if (current === undefined) defineOwn(out, outer, {});
      const target = out[outer];
      if (isJsonObject(target)) put(target, nested[2], value);
      else put(out, key, value);
    } else put(out, nested?.[1] && nested[2] === '' ? nested[1] : key, value);
  }
  return out;
}

/**
 * `multipart/form-data` (Jotform posts this way): its text parts are read like a form; an uploaded
 * file is not a lead value, so only its name and type are kept (`<part>: "photo.jpg (image/jpeg)"`).
 */
async function parseMultipart(raw: Buffer, contentType: string): Promise<ParsedBody> {
  let form: FormData;
  try {
    form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  } catch (err) {
    return refuse(`Unreadable multipart/form-data body: ${err instanceof Error ? err.message : String(err)}`);
  }
  const entries: Array<[string, string]> = [];
  for (const [key, value] of form.entries()) {
    entries.push([key, typeof value === 'string' ? value : `${value.name} (${value.type || 'file'})`]);
    if (entries.length > LIMITS.maxBodyMembers) break;
  }
  return read(formObject(entries));
}

const xmlParser = new XMLParser({
  // Character references (`Jos&#233;`) are decoded; a DOCTYPE, and so any other entity, is refused.
  htmlEntities: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // The parser counts the root's children as nested once: N allows N + 1 levels.
  maxNestedTags: LIMITS.maxJsonDepth - 1,
});

/**
 * An XML lead (older insurance vendors post `<lead><first_name>…`): the root element's children
 * are the body's members, an element's attributes sit beside it as `<element>@<attribute>`, a
 * repeated element is a list. A DOCTYPE (and so any entity definition) is refused: no entity
 * expansion, no external entities.
 */
export function parseXml(text: string): ParsedBody {
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    return refuse('XML with a DOCTYPE or entity definitions is not accepted');
  let parsed: unknown;
  try {
    parsed = xmlParser.parse(text, true);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return refuse(
      /nested tags/i.test(reason)
        ? `XML nested deeper than ${LIMITS.maxJsonDepth} levels`
        : `Unreadable XML: ${reason}`,
    );
  }
  if (!isJsonObject(parsed)) return refuse(NOT_AN_OBJECT);
  const roots = Object.keys(parsed);
  const root = roots.length === 1 && roots[0] !== undefined ? parsed[roots[0]] : parsed;
  const body = isJsonObject(root) ? root : parsed;
  return read(liftXmlText(body), unstorableReferences(text));
}

/**
 * Character references the parser leaves out because no text can hold them (`&#0;`, a lone
 * surrogate such as `&#xD800;`): each is reported, as a NUL sent as such would be.
 */
function unstorableReferences(text: string): FieldWarning[] {
  const warnings: FieldWarning[] = [];
  for (const [reference, hex, decimal] of text.matchAll(/&#(?:x([0-9a-f]+)|([0-9]+));/gi)) {
    const point = hex !== undefined ? parseInt(hex, 16) : Number(decimal);
    if (point !== 0 && !(point >= 0xd800 && point <= 0xdfff)) continue;
    warnings.push({
      field: 'body',
      code: 'UNSTORABLE_CHARACTERS_REMOVED',
      message: `The XML character reference ${reference} names no character that can be stored; removed`,
    });
  }
  return warnings;
}

/** `<phone type="cell">555</phone>` → `phone: "555"`, `phone@type: "cell"`, at every level (iteratively). */
function liftXmlText(root: JsonObject): JsonObject {
  const stack: JsonObject[] = [root];
  for (let obj = stack.pop(); obj; obj = stack.pop()) {
    for (const key of Object.keys(obj)) {
      const value = obj[key] as JsonValue;
      const items = Array.isArray(value) ? value : [value];
      for (const item of items) if (isJsonObject(item)) stack.push(item);
      if (!isJsonObject(value) || !Object.hasOwn(value, '#text')) continue;
      const members = Object.keys(value);
      if (!members.every((member) => member === '#text' || member.startsWith('@'))) continue;
      defineOwn(obj, key, value['#text'] ?? null);
      for (const member of members)
        if (member !== '#text') defineOwn(obj, `${key}${member}`, value[member] ?? null);
    }
  }
  return root;
}
