import { z } from 'zod';
import {
  CalendarDate,
  CurrencyCode,
  DecimalString,
  PercentString,
  PositiveDecimalString,
} from '../wire/primitives.js';

/** Terms of one share class before approval gives it a slug. */
export interface ShareClassTerms {
  name: string;
  managementFeePercent: string;
  carryPercent: string;
  setupFee: { amount: string; currency: string };
}

/** A contract template: its JSON Schema is generated from `schema`, and `schema` is what validates. */
export interface TemplateDefinition {
  name: string;
  title: string;
  description: string;
  schema: z.ZodType;
  /** Share classes an approved request materialises. */
  shareClasses(attributes: Record<string, unknown>): ShareClassTerms[];
}

const SetupFee = z.strictObject({ amount: DecimalString, currency: CurrencyCode });

const ShareClassInput = z.strictObject({
  name: z.string().trim().min(1).max(60),
  managementFeePercent: PercentString,
  carryPercent: PercentString,
  setupFee: SetupFee.optional(),
});

const core = {
  name: z.string().trim().min(3).max(120).meta({ description: 'Name of the SPV.' }),
  currency: CurrencyCode.meta({ description: 'Currency of the SPV: every subscription pays in it.' }),
  targetRaise: PositiveDecimalString.meta({ description: 'Amount the SPV aims to raise.' }),
};

const zeroFee = (currency: string) => ({ amount: '0', currency });

type Attributes = Record<string, unknown>;
const text = (attributes: Attributes, key: string): string => String(attributes[key] ?? '');

const standard2025 = z.strictObject({
  ...core,
  minimumTicket: PositiveDecimalString.optional(),
  closingDate: CalendarDate.optional(),
  shareClasses: z
    .array(ShareClassInput)
    .min(1)
    .max(10)
    .refine((classes) => new Set(classes.map((c) => c.name.toLowerCase())).size === classes.length, {
      message: 'Share class names must be unique',
    }),
});

const singleClass = (name: string) => (attributes: Attributes) => [
  {
    name,
    managementFeePercent: text(attributes, 'managementFeePercent') || '0',
    carryPercent: text(attributes, 'carryPercent'),
    setupFee: zeroFee(text(attributes, 'currency')),
  },
];

/** Templates by contract version. `2024-01` is the older, single-class contract. */
export const TEMPLATES: Record<string, TemplateDefinition[]> = {
  '2024-01': [
    {
      name: 'spv-standard',
      title: 'Standard SPV (single share class)',
      description: 'An SPV with one share class whose fees are given at the top level.',
      schema: z.strictObject({
        ...core,
        managementFeePercent: PercentString,
        carryPercent: PercentString,
      }),
      shareClasses: singleClass('Standard'),
    },
  ],
  '2025-06': [
    {
      name: 'spv-standard',
      title: 'Standard SPV',
      description: 'An SPV with one to ten share classes, each with its own fees, carry and setup fee.',
      schema: standard2025,
      shareClasses: (attributes) => {
        const parsed = standard2025.parse(attributes);
        return parsed.shareClasses.map((c) => ({
          name: c.name,
          managementFeePercent: c.managementFeePercent,
          carryPercent: c.carryPercent,
          setupFee: c.setupFee ?? zeroFee(parsed.currency),
        }));
      },
    },
    {
      name: 'spv-club-deal',
      title: 'Club deal SPV',
      description: 'A small SPV for a closed circle of investors: carry only, one share class.',
      schema: z.strictObject({
        ...core,
        maxInvestors: z.int().min(1).max(249),
        carryPercent: PercentString,
      }),
      shareClasses: singleClass('Club'),
    },
  ],
};
