/**
 * The form two sharing labels are compared in (content restrictions): one spelling per label
 * whatever its case, in any alphabet, or how its accents were typed (a letter and a combining mark,
 * or one precomposed letter). The series' labels reach it through the label_key SQL function
 * (database.ts), since SQLite's own lower() folds A–Z only.
 */
export const labelKey = (label: string): string => label.normalize('NFC').toLowerCase();
