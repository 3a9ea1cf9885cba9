import type { Command, OptionSpec, OptionValues } from '../command.js';
import { credentialOptions } from '../credentials.js';
import type { ImportKindName } from '../import/import-kind.js';
import { stringValue } from '../parse-options.js';

// Only descriptions here: the parser, the SDK and the import itself load when the command runs, so other
// commands, `--help` and usage errors never pay for them.

const sharedOptions: Record<string, OptionSpec> = {
  ...credentialOptions,
  check: {
    type: 'boolean',
    description: 'Validate every row locally, print each bad one, send nothing',
  },
  out: {
    type: 'string',
    valueName: '<file>',
    description:
      "Write every row (its own cells) with its outcome, in input order, to this .csv (the input's delimiter) or .xlsx (mode 0600)",
  },
  map: {
    type: 'string',
    multiple: true,
    valueName: '<column=field>',
    description: "Read this column as this field ('column=' ignores it); repeatable",
  },
  'date-format': {
    type: 'string',
    valueName: '<format>',
    description:
      'How the file writes dates: YYYY-MM-DD, DD/MM/YYYY, MM/DD/YYYY or DD.MM.YYYY (default: as the column shows)',
  },
  'decimal-comma': {
    type: 'boolean',
    description: 'Amounts have a decimal comma (25.000,00), for a column that does not show it',
  },
  delimiter: {
    type: 'string',
    valueName: '<char>',
    description: "Field delimiter (default: ',', ';' or tab, detected from the header line)",
  },
  encoding: {
    type: 'string',
    valueName: '<name>',
    description: 'Text encoding without a BOM: utf-8 (default) or windows-1252 (Excel\'s "CSV" on Windows)',
  },
  sheet: {
    type: 'string',
    valueName: '<name>',
    description: 'The sheet of an .xlsx workbook to read (default: the first)',
  },
  'id-from': {
    type: 'string',
    valueName: 'email',
    description: 'No investor id column: derive partnerInvestorId from the e-mail address (docs/cli.md)',
  },
  'chunk-size': {
    type: 'string',
    valueName: '<rows>',
    description: 'Rows per request (default 500); keep it the same across re-runs',
  },
  concurrency: { type: 'string', valueName: '<n>', description: 'Requests in flight, 1-16 (default 4)' },
  quiet: { type: 'boolean', short: 'q', description: 'No progress lines' },
  json: { type: 'boolean', description: 'Progress, bad rows and the summary as JSON lines on stdout' },
  'allow-insecure-http': {
    type: 'boolean',
    description: 'Allow a plain http base URL to another host (the token then travels in cleartext)',
  },
};

const rerunHelp = [
  'Re-runs are safe. Each request carries an idempotency key derived from its rows and their place in the',
  'file, so running the same command on the same file again (after a crash, a kill or Ctrl-C) replays what',
  'the API already did and sends the rest: nothing is created twice. Keep --chunk-size the same. The API',
  "keeps keys for 24 hours; after that, or once you edit rows, a re-sent investor is matched by the service's",
  'own dedupe on partnerInvestorId (its servicePersonId comes back, status existing). The spec documents no',
  'such dedupe for subscriptions: re-run a subscriptions import within the 24 hours.',
].join('\n');

const exitHelp = [
  'Exit status: 0 every row done; 3 some rows failed (see --out); 4 bad input, nothing sent (--check found',
  'bad rows, or the file or its header cannot be read); 130 interrupted (run the same command again to',
  'resume); 1 the import failed (credentials, or an API error that every request would get); 2 usage error.',
].join('\n');

const fileHelp = [
  'The file: CSV or text in UTF-8 (a BOM is fine), UTF-16 with a BOM, or Windows-1252 (--encoding),',
  'comma, semicolon or tab separated (detected); or an .xlsx workbook (--sheet). The first line names the',
  'columns, matched to the API field names (lumpSum.value) or the names people use in English, French,',
  'German, Spanish, Italian and Dutch ("E-mail", "Prénom", "Geburtsdatum"); --check prints the mapping.',
  'Spaces around values are trimmed; empty cells are left out. Country names become two-letter codes.',
  'Dates (31/12/1980, 12/31/1980, 31.12.1980) and amounts ($25,000.00, 25.000,00 €) are read as their',
  'column shows; a column that never shows it needs --date-format or --decimal-comma. Every row is checked',
  "with the SDK's own input checks before anything is sent; bad rows are reported with line and value.",
].join('\n');

function command(kind: ImportKindName, details: string[], extra: Record<string, OptionSpec>): Command {
  const positionals = kind === 'investors' ? ['file'] : ['spv-slug', 'file'];
  const formats = kind === 'investors' ? ' [--date-format <format>]' : ' [--decimal-comma]';
  return {
    path: ['import', kind],
    summary:
      kind === 'investors'
        ? 'Import investors from a CSV file: checked, chunked, resumable, with a results file'
        : 'Import subscriptions to an SPV from a CSV file (investors by id or via --people)',
    synopsis: `${positionals.map((name) => `<${name === 'file' ? 'file.csv' : name}>`).join(' ')} [--check] [--out <file>]${kind === 'subscriptions' ? ' [--people <file>]' : ''} [--map <column=field>]…${formats} [--delimiter <char>] [--chunk-size <rows>] [--concurrency <n>] [--quiet | --json]`,
    details: [...details, '', fileHelp, '', rerunHelp, '', exitHelp].join('\n'),
    positionals,
    options: { ...sharedOptions, ...extra },
    async run(values: OptionValues, io) {
      const [{ runImport }, { checkOutPath }] = await Promise.all([
        import('../import/run-import.js'),
        import('../import/results-file.js'),
      ]);
      const out = stringValue(values, 'out');
      // Before anything is read or sent: --out never replaces the input, the --people file or a link.
      if (out !== undefined) {
        await checkOutPath(out, [stringValue(values, 'file'), stringValue(values, 'people')]);
      }
      return runImport(kind, values, io);
    },
  };
}

/** `partner-equity import investors <file.csv>`. */
export const importInvestors = command(
  'investors',
  [
    'Columns: partnerInvestorId (or "Investor ID", required), email ("E-mail", "Email address"), firstName',
    '("First name", "Given name"), lastName ("Last name", "Surname", "Family name"), dateOfBirth ("DOB",',
    '"Birth date"; 31/12/1980 and the like, see below), countryOfResidence ("Country"; a two-letter code or',
    'a country name). No id column: --id-from email. Bad rows are not sent; every other row is.',
    'The --out file (line, partnerInvestorId, status, servicePersonId, error…) feeds `import subscriptions',
    '--people`.',
  ],
  {},
);

/** `partner-equity import subscriptions <spv-slug> <file.csv>`. */
export const importSubscriptions = command(
  'subscriptions',
  [
    'Columns: servicePersonId ("Person ID"), or partnerInvestorId ("Investor ID") with --with-investors (the',
    "sheet's investor columns make or match each row's investor first) or --people;",
    'lumpSum.currency ("Currency", or --currency), lumpSum.value ("Amount", "Lump sum"), shareClassSlug',
    '("Share class", or --share-class) (required); partnerSubscriptionId ("Your reference", optional). The SPV',
    'is read (its currency and share classes): a row in another currency is refused before anything is',
    'sent, and share classes may be named by name ("Class A"). The API takes a request whole, so a chunk',
    'holding a bad row is not sent (nor, when the API refuses one, created): fix it, run again. <spv-slug> is',
    'the SPV slug, or an approved SPV request slug (spvr_…, see `partner-equity spv-requests list`).',
  ],
  {
    people: {
      type: 'string',
      valueName: '<file>',
      description: 'An `import investors --out` file: resolves partnerInvestorId to servicePersonId',
    },
    'with-investors': {
      type: 'boolean',
      description:
        "Create (or match) each row's investor from the sheet's investor columns first, then its subscription",
    },
    currency: {
      type: 'string',
      valueName: '<ISO>',
      description: 'The currency of rows that give none (a file with no currency column), e.g. EUR',
    },
    'share-class': {
      type: 'string',
      valueName: '<slug or name>',
      description: 'The share class of rows that give none, by slug or by name ("Class A")',
    },
  },
);
