import type { SpvRequestCreate } from '@partner-equity/sdk';

/**
 * An SPV request body as your own system would build it from a deal: the contract template it follows and
 * the attributes that template asks for (read them with `client.contracts.templates.get(version, name)`).
 * The samples the service publishes (`client.contracts.samples`) show the same; their shape is not part of
 * the spec, so the examples write the body themselves.
 */
export function dealRequest(name = 'Acme Growth SPV I'): SpvRequestCreate {
  return {
    templateId: 'spv-standard',
    attributes: {
      name,
      currency: 'EUR',
      targetRaise: '2500000.00',
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
  };
}
