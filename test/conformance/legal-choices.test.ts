// The legal-choices matrix (legal-choices.ts) in `npm test`: the variant that takes every other answer at once.
import { variants } from '../independent/variants.ts';
import { legalChoices } from './legal-choices.ts';

legalChoices(variants.filter((v) => v.name === 'every other answer at once'));
