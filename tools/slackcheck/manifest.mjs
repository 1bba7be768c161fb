// Checks manifest.yaml against Slack's app-manifest JSON schema
// (slackapi/manifest-schema), read from shared/slack-specs/manifest-schema
// beside the repository and never copied into it.
import fs from 'node:fs';
import path from 'node:path';

import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

/**
 * SetupError means a check could not run at all (a missing schema, no
 * compiler), as opposed to a file failing it.
 */
export class SetupError extends Error {}

// PLACEHOLDER is what manifest.yaml says an admin replaces with the public
// host of their deployment (README, "Install in Slack"); ADMIN_HOST is the
// kind of host they put there. Slack's schema rejects the placeholder itself
// (unfurl_domains must be a lower-case domain), so the check does as the
// admin would rather than validate a manifest nobody can paste.
export const PLACEHOLDER = 'YOUR_HOST';
export const ADMIN_HOST = 'recordsbot.example.org';

// loadSchemas compiles Slack's entry schema, manifest.schema.json. It refers
// to the per-version schemas by their published URLs; each is registered
// under that URL from the local schemas/ folder, so nothing is fetched.
function loadSchemas(dir) {
  const entryPath = path.join(dir, 'manifest.schema.json');
  if (!fs.existsSync(entryPath)) {
    throw new SetupError(
      `Slack's manifest schema is missing: ${entryPath} (shared/slack-specs/manifest-schema must sit beside the repository)`,
    );
  }
  const entry = JSON.parse(fs.readFileSync(entryPath, 'utf8'));
  // Ajv's default strictSchema stays on, so a keyword this check does not
  // understand stops it instead of being skipped. strictTypes is off: Slack's
  // schema puts an inert minItems on a string (third_party_auth ... scope
  // items), which it would report although it changes nothing.
  const ajv = new Ajv({ allErrors: true, strictTypes: false });
  addFormats(ajv);
  // "_note" is Slack's annotation for humans.
  ajv.addVocabulary(['_note']);
  // Slack's schema writes display_information.background_color's pattern as
  // "regex", which draft-07 does not define and validators ignore. Giving it
  // pattern's meaning keeps the one colour rule Slack wrote from being
  // switched off by its spelling.
  ajv.addKeyword({
    keyword: 'regex',
    type: 'string',
    schemaType: 'string',
    validate: (re, data) => new RegExp(re, 'u').test(data),
    error: { message: (cxt) => `must match regex ${JSON.stringify(cxt.schema)}` },
  });
  const versions = new Map();
  const refs = JSON.stringify(entry).match(/https:[^"]*\/schemas\/manifest\.schema\.[\d.]+\.json/g) ?? [];
  for (const url of new Set(refs)) {
    const local = path.join(dir, 'schemas', path.basename(url));
    if (!fs.existsSync(local)) throw new SetupError(`Slack's manifest schema is missing ${local}`);
    const schema = JSON.parse(fs.readFileSync(local, 'utf8'));
    ajv.addSchema(schema, url);
    versions.set(path.basename(url), url);
  }
  return { ajv, validate: ajv.compile(entry), versions };
}

// explain re-validates against the one version schema that applies, because
// the entry schema's oneOf reports every branch's errors at once.
function explain(schemas, manifest) {
  const major = manifest?._metadata?.major_version === 2 ? 2 : 1;
  const url = schemas.versions.get(`manifest.schema.${major}.0.0.json`);
  const validate = url && schemas.ajv.getSchema(url);
  if (!validate || validate(manifest)) {
    return (schemas.validate.errors ?? []).map(formatError);
  }
  return validate.errors.map(formatError);
}

function formatError(e) {
  const where = e.instancePath === '' ? '(top level)' : e.instancePath;
  const extra = e.params?.additionalProperty ? `: ${e.params.additionalProperty}` : '';
  return `${where} ${e.message}${extra}`;
}

// checkManifest validates the manifest at file (after the admin's host
// replacement) and returns { file, what, errors }. schemaDir is Slack's
// manifest-schema folder; root makes the reported file name relative.
export function checkManifest(file, schemaDir, root = path.dirname(file)) {
  const result = { file: path.relative(root, file), what: "Slack app manifest schema", errors: [] };
  const schemas = loadSchemas(schemaDir);
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    result.errors.push(`cannot read: ${err.message}`);
    return result;
  }
  const doc = YAML.parseDocument(text.replaceAll(PLACEHOLDER, ADMIN_HOST));
  if (doc.errors.length > 0) {
    result.errors.push(...doc.errors.map((e) => `not YAML: ${e.message}`));
    return result;
  }
  const manifest = doc.toJS();
  if (!schemas.validate(manifest)) result.errors.push(...explain(schemas, manifest));
  return result;
}
