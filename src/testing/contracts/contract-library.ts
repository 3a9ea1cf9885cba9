import { z } from 'zod';
import type {
  CatalogAttribute,
  ContractCatalog,
  ContractPrimitive,
  ContractSample,
  ContractTemplate,
  ContractVersion,
} from '../wire/contracts.js';
import {
  CalendarDate,
  CurrencyCode,
  DecimalString,
  PercentString,
  PositiveDecimalString,
} from '../wire/primitives.js';
import { TEMPLATES, type TemplateDefinition } from './templates.js';

const VERSIONS: ContractVersion[] = [
  { version: '2024-01', releasedAt: '2024-01-15', deprecated: true },
  { version: '2025-06', releasedAt: '2025-06-02', deprecated: false },
];

const jsonSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;

const PRIMITIVES: Record<string, { description: string; schema: z.ZodType }> = {
  'decimal-string': { description: 'Non-negative decimal number as a string.', schema: DecimalString },
  'positive-decimal-string': {
    description: 'Decimal string greater than zero.',
    schema: PositiveDecimalString,
  },
  'percent-string': { description: 'Percentage 0-100 as a decimal string.', schema: PercentString },
  'currency-code': { description: 'ISO 4217 currency code, upper case.', schema: CurrencyCode },
  'calendar-date': { description: 'Calendar date YYYY-MM-DD.', schema: CalendarDate },
  text: { description: 'Non-empty text.', schema: z.string().min(1) },
  integer: { description: 'Whole number.', schema: z.int() },
};

const attr = (name: string, primitive: string, description: string): CatalogAttribute => ({
  name,
  primitive,
  description,
});

const baseAttributes = [
  attr('name', 'text', 'Name of the SPV.'),
  attr('currency', 'currency-code', 'Currency every subscription pays in.'),
  attr('targetRaise', 'positive-decimal-string', 'Amount the SPV aims to raise.'),
  attr('carryPercent', 'percent-string', 'Carried interest.'),
];

const CATALOGS: Record<string, Array<{ name: string; title: string; attributes: CatalogAttribute[] }>> = {
  '2024-01': [
    {
      name: 'spv-attributes',
      title: 'SPV attributes',
      attributes: [
        ...baseAttributes,
        attr('managementFeePercent', 'percent-string', 'Yearly management fee.'),
      ],
    },
  ],
  '2025-06': [
    {
      name: 'spv-attributes',
      title: 'SPV attributes',
      attributes: [
        ...baseAttributes,
        attr('minimumTicket', 'positive-decimal-string', 'Smallest lump sum accepted.'),
        attr('closingDate', 'calendar-date', 'Planned closing date.'),
        attr('maxInvestors', 'integer', 'Most investors a club deal admits.'),
      ],
    },
    {
      name: 'share-class-attributes',
      title: 'Share class attributes',
      attributes: [
        attr('name', 'text', 'Display name; its slug is derived on approval.'),
        attr('managementFeePercent', 'percent-string', 'Yearly management fee.'),
        attr('carryPercent', 'percent-string', 'Carried interest.'),
        attr('setupFee.amount', 'decimal-string', 'One-off setup fee.'),
        attr('setupFee.currency', 'currency-code', 'Currency of the setup fee.'),
      ],
    },
  ],
};

const standardAttributes = {
  name: 'Acme Growth SPV I',
  currency: 'EUR',
  targetRaise: '2500000.00',
};

const SAMPLES: Record<
  string,
  Array<{ name: string; title: string; templateId: string; attributes: object }>
> = {
  '2024-01': [
    {
      name: 'spv-standard',
      title: 'Standard SPV',
      templateId: 'spv-standard',
      attributes: { ...standardAttributes, managementFeePercent: '2', carryPercent: '20' },
    },
  ],
  '2025-06': [
    {
      name: 'spv-standard-minimal',
      title: 'Standard SPV with one share class',
      templateId: 'spv-standard',
      attributes: {
        ...standardAttributes,
        shareClasses: [{ name: 'Class A', managementFeePercent: '2', carryPercent: '20' }],
      },
    },
    {
      name: 'spv-standard-two-classes',
      title: 'Standard SPV with two share classes and setup fees',
      templateId: 'spv-standard',
      attributes: {
        ...standardAttributes,
        minimumTicket: '10000',
        closingDate: '2026-03-31',
        shareClasses: [
          {
            name: 'Class A',
            managementFeePercent: '2',
            carryPercent: '20',
            setupFee: { amount: '500', currency: 'EUR' },
          },
          {
            name: 'Class B',
            managementFeePercent: '1.5',
            carryPercent: '15',
            setupFee: { amount: '0', currency: 'EUR' },
          },
        ],
      },
    },
    {
      name: 'spv-club-deal',
      title: 'Club deal',
      templateId: 'spv-club-deal',
      attributes: {
        name: 'Founders Club',
        currency: 'USD',
        targetRaise: '400000',
        maxInvestors: 20,
        carryPercent: '10',
      },
    },
  ],
};

/** The contract versions, oldest first. */
export function contractVersions(): { latest: string; versions: ContractVersion[] } {
  return { latest: VERSIONS[VERSIONS.length - 1]!.version, versions: VERSIONS.map((v) => ({ ...v })) };
}

/** True when `version` is published. */
export function hasContractVersion(version: string): boolean {
  return VERSIONS.some((v) => v.version === version);
}

/** The template named `name` in `version`, or in the newest version that has it when `version` is omitted. */
export function findTemplate(
  name: string,
  version?: string,
): { version: string; template: TemplateDefinition } | undefined {
  const candidates =
    version === undefined ? [...VERSIONS].reverse() : VERSIONS.filter((v) => v.version === version);
  for (const { version: v } of candidates) {
    const template = TEMPLATES[v]?.find((t) => t.name === name);
    if (template !== undefined) return { version: v, template };
  }
  return undefined;
}

/** Every document of one kind in one version, as the API serves them. */
export function contractDocuments(kind: 'templates', version: string): ContractTemplate[];
export function contractDocuments(kind: 'catalogs', version: string): ContractCatalog[];
export function contractDocuments(kind: 'primitives', version: string): ContractPrimitive[];
export function contractDocuments(kind: 'samples', version: string): ContractSample[];
export function contractDocuments(kind: string, version: string): Array<{ name: string }>;
export function contractDocuments(kind: string, version: string): Array<{ name: string }> {
  switch (kind) {
    case 'templates':
      return (TEMPLATES[version] ?? []).map((t) => ({
        name: t.name,
        version,
        title: t.title,
        description: t.description,
        schema: jsonSchema(t.schema),
      }));
    case 'catalogs':
      return (CATALOGS[version] ?? []).map((c) => ({
        name: c.name,
        version,
        title: c.title,
        description: `Attributes available to ${version} templates.`,
        attributes: c.attributes,
      }));
    case 'primitives':
      return hasContractVersion(version)
        ? Object.entries(PRIMITIVES).map(([name, p]) => ({
            name,
            version,
            title: name,
            description: p.description,
            schema: jsonSchema(p.schema),
          }))
        : [];
    case 'samples':
      return (SAMPLES[version] ?? []).map((s) => ({
        name: s.name,
        version,
        title: s.title,
        description: `A valid POST /v1/spv-requests body for template ${s.templateId}.`,
        templateId: s.templateId,
        payload: { templateId: s.templateId, templateVersion: version, attributes: s.attributes },
      }));
    default:
      return [];
  }
}
