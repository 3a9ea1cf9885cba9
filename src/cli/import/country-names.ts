import { type HeaderLanguage, nameKey } from './header-names.js';

/** Country name (any case, accents optional) or code → ISO 3166-1 alpha-2, or `undefined`. */
export type CountryLookup = (name: string) => string | undefined;

const LANGUAGES: readonly HeaderLanguage[] = ['en', 'fr', 'de', 'es', 'it', 'nl'];

/**
 * Names i18n-iso-countries does not list that exports hold: the nations of the United Kingdom (a person's
 * country of residence is the state, GB) and common short forms, in the six languages.
 */
const SHORT_FORMS: Readonly<Record<string, string>> = {
  UK: 'GB',
  'U.K.': 'GB',
  Britain: 'GB',
  'Great Britain': 'GB',
  England: 'GB',
  Scotland: 'GB',
  Wales: 'GB',
  'Northern Ireland': 'GB',
  Angleterre: 'GB',
  Écosse: 'GB',
  'Pays de Galles': 'GB',
  'Irlande du Nord': 'GB',
  Schottland: 'GB',
  Nordirland: 'GB',
  Großbritannien: 'GB',
  Inglaterra: 'GB',
  Escocia: 'GB',
  Gales: 'GB',
  Inghilterra: 'GB',
  Scozia: 'GB',
  Galles: 'GB',
  Engeland: 'GB',
  Schotland: 'GB',
  'Groot-Brittannië': 'GB',
  'États-Unis': 'US',
  'Stati Uniti': 'US',
  USA: 'US',
  'U.S.': 'US',
  'U.S.A.': 'US',
  America: 'US',
  'EE. UU.': 'US',
  EEUU: 'US',
  Tchéquie: 'CZ',
  Chequia: 'CZ',
  Cechia: 'CZ',
  'Corea del Sur': 'KR',
  Holland: 'NL',
  Hollande: 'NL',
};

/**
 * Loads the country names only when a file has a country column: i18n-iso-countries' names in English,
 * French, German, Spanish, Italian and Dutch (official and short names), its alpha-3 codes, and
 * {@link SHORT_FORMS}. A name two countries share across languages is left out, so a match is never a
 * guess. The package's main entry registers every language it ships (tens of milliseconds, once);
 * importing one language's JSON needs an import attribute that the build's target rewrites into a form
 * Node 22 refuses.
 */
export async function loadCountryLookup(): Promise<CountryLookup> {
  const { default: countries } = await import('i18n-iso-countries');
  const byName = new Map<string, string | null>();
  const add = (name: string, code: string) => {
    const key = nameKey(name);
    const known = byName.get(key);
    byName.set(key, known === undefined || known === code ? code : null);
  };
  for (const language of LANGUAGES) {
    for (const [code, names] of Object.entries(countries.getNames(language, { select: 'all' }))) {
      for (const name of names) add(name, code);
    }
  }
  for (const [name, code] of Object.entries(SHORT_FORMS)) add(name, code);
  return (name) => {
    if (/^[A-Za-z]{2}$/.test(name) && countries.isValid(name)) return name.toUpperCase();
    const code = byName.get(nameKey(name));
    if (code != null) return code;
    if (/^[A-Za-z]{3}$/.test(name)) return countries.alpha3ToAlpha2(name.toUpperCase());
    return undefined;
  };
}
