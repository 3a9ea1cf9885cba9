/**
 * A header or field name reduced to what people mean by it: lower case, letters and digits only, accents
 * and a trailing bracket (`Commitment ($)`, `Betrag (EUR)`) dropped, so `E-mail`, `e mail` and `EMAIL`
 * are one name, `Prénom` is `prenom`, and `Date of birth` is the field `dateOfBirth`.
 */
export function headerKey(name: string): string {
  return nameKey(name.replace(/\s*[([][^)\]]*[)\]]\s*$/u, ''));
}

/** A name for matching: lower case, letters and digits only, accents dropped (`Côte d'Ivoire`). */
export function nameKey(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** The languages whose column names are read without `--map`. */
export type HeaderLanguage = 'en' | 'fr' | 'de' | 'es' | 'it' | 'nl';

/**
 * The column names people give each field, by language, as spreadsheets and exports write them (case,
 * accents, spaces and punctuation are ignored: {@link headerKey}). A name two fields could claim (German
 * `Name`, Dutch `Naam`) is left out, so a match is never a guess; the test checks that no key is claimed
 * twice. The one table of header names: add a language or a name here.
 */
export const HEADER_NAMES: Readonly<Record<string, Readonly<Record<HeaderLanguage, readonly string[]>>>> = {
  partnerInvestorId: {
    en: ['Investor ID', 'Investor number', 'Investor no', 'Investor reference', 'Client ID', 'Customer ID'],
    fr: [
      'ID investisseur',
      'Identifiant investisseur',
      'N° investisseur',
      'Numéro investisseur',
      'Référence investisseur',
      'Identifiant client',
      'Numéro client',
    ],
    de: [
      'Investor-ID',
      'Investoren-ID',
      'Investornummer',
      'Anleger-ID',
      'Anlegernummer',
      'Kundennummer',
      'Kunden-ID',
    ],
    es: [
      'ID inversor',
      'ID del inversor',
      'Número de inversor',
      'Identificador del inversor',
      'ID cliente',
      'Número de cliente',
    ],
    it: ['ID investitore', 'Codice investitore', 'Numero investitore', 'Codice cliente'],
    nl: ['Investeerder-ID', 'Investeerdernummer', 'Belegger-ID', 'Beleggernummer', 'Klantnummer', 'Klant-ID'],
  },
  email: {
    en: ['Email', 'Email address', 'Mail'],
    fr: ['Courriel', 'Adresse e-mail', 'Adresse électronique', 'Adresse courriel', 'Mél'],
    de: ['E-Mail-Adresse', 'Mailadresse'],
    es: ['Correo', 'Correo electrónico', 'Dirección de correo', 'Dirección de correo electrónico'],
    it: ['Posta elettronica', 'Indirizzo email', 'Indirizzo di posta elettronica'],
    nl: ['E-mailadres'],
  },
  firstName: {
    en: ['First name', 'Given name', 'Forename'],
    fr: ['Prénom'],
    de: ['Vorname'],
    es: ['Nombre', 'Nombre de pila'],
    it: ['Nome'],
    nl: ['Voornaam', 'Roepnaam'],
  },
  lastName: {
    en: ['Last name', 'Surname', 'Family name'],
    fr: ['Nom', 'Nom de famille'],
    de: ['Nachname', 'Familienname', 'Zuname'],
    es: ['Apellido', 'Apellidos'],
    it: ['Cognome'],
    nl: ['Achternaam', 'Familienaam'],
  },
  dateOfBirth: {
    en: ['Date of birth', 'DOB', 'Birth date', 'Birthday'],
    fr: ['Date de naissance', 'Né le', 'Née le', 'Naissance'],
    de: ['Geburtsdatum', 'Geburtstag', 'Geb.-Datum', 'Geboren am'],
    es: ['Fecha de nacimiento', 'Nacimiento'],
    it: ['Data di nascita', 'Nascita'],
    nl: ['Geboortedatum', 'Geboren op'],
  },
  countryOfResidence: {
    en: [
      'Country',
      'Country of residence',
      'Residence',
      'Residence country',
      'Country of domicile',
      'Domicile',
    ],
    fr: ['Pays', 'Pays de résidence', 'Résidence', 'Pays de domicile'],
    de: ['Land', 'Wohnsitzland', 'Wohnland', 'Land des Wohnsitzes', 'Wohnsitz'],
    es: ['País', 'País de residencia', 'Residencia'],
    it: ['Paese', 'Paese di residenza', 'Nazione', 'Stato di residenza', 'Residenza'],
    nl: ['Woonland', 'Land van verblijf', 'Land van vestiging'],
  },
  servicePersonId: {
    en: ['Person ID', 'Person', 'Service person ID'],
    fr: ['ID personne', 'Identifiant personne'],
    de: ['Personen-ID', 'Person-ID'],
    es: ['ID persona', 'ID de persona'],
    it: ['ID della persona'],
    nl: ['Persoon-ID', 'Persoons-ID'],
  },
  shareClassSlug: {
    en: ['Share class', 'Class', 'Unit class'],
    fr: ['Catégorie de parts', 'Classe de parts', "Classe d'actions", 'Classe'],
    de: ['Anteilsklasse', 'Anteilklasse', 'Aktienklasse', 'Klasse'],
    es: ['Clase de participación', 'Clase de participaciones', 'Clase de acciones', 'Clase'],
    it: ['Classe di quote', 'Classe di azioni'],
    nl: ['Aandelenklasse', 'Participatieklasse'],
  },
  'lumpSum.currency': {
    en: ['Currency', 'Ccy'],
    fr: ['Devise', 'Monnaie'],
    de: ['Währung'],
    es: ['Moneda', 'Divisa'],
    it: ['Valuta'],
    nl: ['Munt', 'Muntsoort'],
  },
  'lumpSum.value': {
    en: [
      'Amount',
      'Lump sum',
      'Value',
      'Commitment',
      'Commitment amount',
      'Subscription amount',
      'Investment amount',
    ],
    fr: [
      'Montant',
      'Montant souscrit',
      'Montant de souscription',
      'Engagement',
      "Montant de l'engagement",
      'Somme',
    ],
    de: ['Betrag', 'Zeichnungsbetrag', 'Anlagebetrag', 'Summe', 'Kapitalzusage', 'Zusage'],
    es: ['Importe', 'Monto', 'Importe suscrito', 'Compromiso', 'Cantidad'],
    it: ['Importo', 'Importo sottoscritto', 'Impegno', 'Ammontare'],
    nl: ['Bedrag', 'Inschrijvingsbedrag', 'Toezegging', 'Investeringsbedrag'],
  },
  partnerSubscriptionId: {
    en: ['Your reference', 'Reference', 'Subscription ID', 'Subscription reference'],
    fr: ['Référence', 'Votre référence', 'ID souscription', 'Référence souscription'],
    de: ['Referenz', 'Ihre Referenz', 'Zeichnungs-ID', 'Zeichnungsreferenz'],
    es: ['Referencia', 'Su referencia', 'ID suscripción', 'Referencia de suscripción'],
    it: ['Riferimento', 'Vostro riferimento', 'ID sottoscrizione'],
    nl: ['Referentie', 'Uw referentie', 'Inschrijvings-ID'],
  },
};

/**
 * Every name of {@link HEADER_NAMES} (or those of `languages`) as a {@link headerKey}, with its field. A
 * currency in brackets is not part of the name: `Commitment ($)` is `Commitment`.
 */
export function headerKeys(languages?: readonly HeaderLanguage[]): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [field, byLanguage] of Object.entries(HEADER_NAMES)) {
    for (const [language, names] of Object.entries(byLanguage)) {
      if (languages !== undefined && !languages.includes(language as HeaderLanguage)) continue;
      for (const name of names) keys.set(headerKey(name), field);
    }
  }
  return keys;
}

/** The fields whose names (or common names) are nearest to `name`: at most three, nearest first. */
export function closestFields(name: string, names: ReadonlyMap<string, string>): string[] {
  const key = headerKey(name);
  const scored = new Map<string, number>();
  for (const [candidate, field] of names) {
    const distance = editDistance(key, candidate) / Math.max(key.length, candidate.length, 1);
    const contains = key !== '' && (candidate.includes(key) || key.includes(candidate)) ? 0.25 : 1;
    const score = Math.min(distance, contains);
    if (score < (scored.get(field) ?? Number.POSITIVE_INFINITY)) scored.set(field, score);
  }
  return [...scored]
    .filter(([, score]) => score <= 0.6)
    .sort((a, b) => a[1] - b[1])
    .slice(0, 3)
    .map(([field]) => field);
}

/** Levenshtein distance: the edits that turn one name into the other. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
