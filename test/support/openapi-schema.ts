/**
 * Checks an answer's body against the schema the served OpenAPI document gives for it, as a client
 * generated from /openapi.json would (JSON Schema 2020-12, OpenAPI 3.1): the errors, empty when it
 * validates.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { TestApp } from './app';

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>>; components: object };

export async function answerSchemaErrors(t: TestApp, path: string, method: string, status: number, body: unknown): Promise<string[]> {
  const doc = (await t.http().get('/openapi.json').expect(200)).body as Doc;
  const schema = doc.paths[path]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
  if (!schema) return [`no JSON schema for ${method.toUpperCase()} ${path} ${status}`];
  // OpenAPI's own keywords (example) are not JSON Schema's: not strict about them.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  const validate = ajv.compile(rebase(schema));
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** The operation's schema with its local references pointed at the document added above. */
function rebase(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi.json#/components/'));
}
