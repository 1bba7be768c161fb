// Self-test: proves the check fails when it should. It copies real goldens
// and the real manifest into a temporary tree, breaks the copies in ways a
// change to our code could break them, and requires each broken copy to fail
// for the stated reason, and each unbroken control copy to pass. A check that
// passed everything would fail here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import YAML from 'yaml';

import { checkGoldens, schemaDir } from './check.mjs';
import { checkManifest } from './manifest.mjs';

// first returns the first object (depth first) in v for which pred holds.
function first(v, pred) {
  if (v === null || typeof v !== 'object') return undefined;
  if (!Array.isArray(v) && pred(v)) return v;
  for (const child of Object.values(v)) {
    const found = first(child, pred);
    if (found) return found;
  }
  return undefined;
}

// must is first, for a node the case needs: a golden that no longer has one
// makes the case meaningless, so the self-test says so instead of passing.
function must(v, pred, what) {
  const found = first(v, pred);
  if (!found) throw new Error(`self-test source has no ${what}`);
  return found;
}

const ofType = (t) => (o) => o.type === t;

// GOLDEN_CASES: from is a real golden in blocks/testdata; to is the copy's
// name, which picks its kind; break edits the parsed copy, raw the text;
// want is a pattern the reported errors must match, or null when the
// copy must pass.
const GOLDEN_CASES = [
  { to: 'actions_normal', from: 'actions_normal', why: 'control: real message', want: null },
  { to: 'home_normal', from: 'home_normal', why: 'control: real Home view', want: null },
  { to: 'unfurl', from: 'unfurl', why: 'control: real unfurl', want: null },
  { to: 'reminder', from: 'reminder', why: 'control: real reminder', want: null },
  { to: 'modal_search_results', from: 'modal_search_results', why: 'control: real search modal', want: null },
  { to: 'workobject_actions', from: 'workobject_actions', why: 'control: real Work Object cards', want: null },
  { to: 'panel_action', from: 'panel_action', why: 'control: real flexpane', want: null },
  {
    to: 'workobject_no_url',
    from: 'workobject_actions',
    why: 'Work Object entity without its url',
    break: (g) => {
      delete g.entities[0].url;
    },
    want: /Property 'url' is missing/,
  },
  {
    to: 'panel_task_field',
    from: 'panel_action',
    why: 'a field no entity type has',
    break: (g) => {
      g.metadata.entity_payload.fields.owner = { value: 'x' };
    },
    want: /'"?owner"?' does not exist/,
  },
  {
    to: 'modal_no_title',
    from: 'modal_search_results',
    why: 'modal without its title',
    break: (g) => {
      delete g.title;
    },
    want: /Property 'title' is missing/,
  },
  {
    to: 'actions_sektion',
    from: 'actions_normal',
    why: 'misspelt block type',
    break: (g) => {
      must(g, ofType('section'), 'section block').type = 'sektion';
    },
    want: /"sektion"' is not assignable/,
  },
  {
    to: 'actions_button_no_text',
    from: 'actions_normal',
    why: 'button without its text',
    break: (g) => {
      delete must(g, ofType('button'), 'button').text;
    },
    want: /Property 'text' is missing .* 'Button'/,
  },
  {
    to: 'actions_mrkdwn_emoji',
    from: 'actions_normal',
    why: 'emoji on a mrkdwn text object (only plain_text has it)',
    break: (g) => {
      must(g, ofType('mrkdwn'), 'mrkdwn text').emoji = true;
    },
    want: /'"?emoji"?' does not exist in type 'MrkdwnElement'/,
  },
  {
    to: 'help_null_block_id',
    from: 'help_actions',
    why: 'null where Slack wants the field left out',
    break: (g) => {
      g.blocks[0].block_id = null;
    },
    want: /Type 'null' is not assignable/,
  },
  {
    to: 'home_modal',
    from: 'home_normal',
    why: 'Home view sent as a modal without a title',
    break: (g) => {
      g.type = 'modal';
    },
    want: /"modal"' is not assignable to type '"home"'/,
  },
  {
    to: 'unfurl_markdown_text',
    from: 'unfurl',
    why: 'text object of an unknown type in an unfurl',
    break: (g) => {
      must(g, ofType('mrkdwn'), 'mrkdwn text').type = 'markdown';
    },
    want: /"markdown"' is not assignable/,
  },
  {
    to: 'reminder_string_array_metadata',
    from: 'reminder',
    why: 'metadata event_payload with an array of strings',
    break: (g) => {
      g.metadata = { event_type: 'recordsbot_reminder', event_payload: { action_ids: ['A-101', 'A-102'] } };
    },
    want: /'string\[\]' is not assignable/,
  },
  {
    to: 'reminder_valid_metadata',
    from: 'reminder',
    why: 'control: metadata with string and object-array values',
    break: (g) => {
      g.metadata = {
        event_type: 'recordsbot_reminder',
        event_payload: { key: 'remind:U0123ABCD:2026-03-02', actions: [{ id: 'A-101' }, { id: 'A-102' }] },
      };
    },
    want: null,
  },
  {
    to: 'response_replace',
    from: 'actions_normal',
    why: 'control: response_url body replacing the original',
    break: (g) => {
      Object.assign(g, { response_type: 'ephemeral', replace_original: true });
    },
    want: null,
  },
  {
    to: 'response_in_thread',
    from: 'actions_normal',
    why: 'response_url body with an unknown response_type',
    break: (g) => {
      g.response_type = 'in_thread';
    },
    want: /"in_thread"' is not assignable/,
  },
  {
    to: 'mystery',
    from: 'notice',
    why: 'golden of no known kind',
    want: /no golden kind matches mystery\.golden\.json/,
  },
  {
    to: 'notice_truncated',
    from: 'notice',
    why: 'file that is not JSON',
    raw: (text) => text.slice(0, 40),
    want: /not JSON/,
  },
];

// MANIFEST_CASES edit the parsed manifest.yaml the same way.
const MANIFEST_CASES = [
  { name: 'manifest_control', why: 'control: real manifest', want: null },
  {
    name: 'manifest_no_name',
    why: 'display_information without name',
    break: (m) => {
      delete m.display_information.name;
    },
    want: /\/display_information must have required property 'name'/,
  },
  {
    name: 'manifest_typo',
    why: 'misspelt app_home setting',
    break: (m) => {
      delete m.features.app_home.home_tab_enabled;
      m.features.app_home.home_tab_enable = true;
    },
    want: /\/features\/app_home must NOT have additional properties: home_tab_enable/,
  },
  {
    name: 'manifest_url_as_domain',
    why: 'unfurl domain given as a URL',
    break: (m) => {
      m.features.unfurl_domains = ['https://YOUR_HOST/'];
    },
    want: /\/features\/unfurl_domains\/0 must match pattern/,
  },
  {
    name: 'manifest_command_no_description',
    why: 'slash command without description',
    break: (m) => {
      delete m.features.slash_commands[0].description;
    },
    want: /\/features\/slash_commands\/0 must have required property 'description'/,
  },
  {
    name: 'manifest_colour_name',
    why: 'background colour as a name',
    break: (m) => {
      m.display_information.background_color = 'navy';
    },
    want: /\/display_information\/background_color must match regex/,
  },
  {
    name: 'manifest_short_long_description',
    why: 'long_description under 175 characters',
    break: (m) => {
      m.display_information.long_description = 'Committee records in Slack.';
    },
    want: /\/display_information\/long_description must NOT have fewer than 175 characters/,
  },
];

// verdict compares one result with what its case wants.
function verdict(errors, want) {
  const text = errors.join('\n');
  if (want === null) return errors.length === 0 ? '' : `should pass, failed:\n${text}`;
  if (errors.length === 0) return 'should fail, passed';
  return want.test(text) ? '' : `failed, but not with ${want}:\n${text}`;
}

// selfTest runs every case against copies from the repository at root and
// returns the exit code.
export function selfTest(root) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'slackcheck-selftest-'));
  const lines = [];
  try {
    const testdata = path.join(tmp, 'blocks', 'testdata');
    fs.mkdirSync(testdata, { recursive: true });
    const files = GOLDEN_CASES.map((c) => {
      const src = fs.readFileSync(path.join(root, 'blocks', 'testdata', `${c.from}.golden.json`), 'utf8');
      let out = src;
      if (c.break) {
        const g = JSON.parse(src);
        c.break(g);
        out = `${JSON.stringify(g, null, 2)}\n`;
      }
      if (c.raw) out = c.raw(src);
      fs.writeFileSync(path.join(testdata, `${c.to}.golden.json`), out);
      return path.join('blocks', 'testdata', `${c.to}.golden.json`);
    });
    const golden = checkGoldens(tmp, files);
    GOLDEN_CASES.forEach((c, i) => lines.push([c.to, c.why, verdict(golden[i].errors, c.want), golden[i].errors]));

    const manifestText = fs.readFileSync(path.join(root, 'manifest.yaml'), 'utf8');
    for (const c of MANIFEST_CASES) {
      const m = YAML.parse(manifestText);
      if (c.break) c.break(m);
      const dir = path.join(tmp, c.name);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'manifest.yaml'), YAML.stringify(m));
      const r = checkManifest(path.join(dir, 'manifest.yaml'), schemaDir(root), tmp);
      lines.push([c.name, c.why, verdict(r.errors, c.want), r.errors]);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  let failed = 0;
  for (const [name, why, problem, errors] of lines) {
    if (problem) failed++;
    const shown = problem ? `\n        ${problem.replaceAll('\n', '\n        ')}` : errors.length ? `: ${errors[0].slice(0, 100)}` : '';
    console.log(`${problem ? 'FAIL' : 'ok  '}  self-test ${name} (${why})${shown}`);
  }
  // Said plainly, because a reader could assume otherwise: the schema has no
  // list of scopes, so a misspelt scope passes here (bot/manifest_test.go
  // keeps the scopes in step with the code instead).
  console.log('note  scope names are not checked: Slack\'s manifest schema does not list them');
  console.log(`${lines.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
