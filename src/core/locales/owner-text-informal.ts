// The respondent's lines of the owner's email text (owner-text.ts) in the informal variant, for
// the languages that have one (`settings.formality: informal`).
import type { Locale } from "./codes.ts";
import type { InformalText } from "./owner-text.ts";

export const INFORMAL_OWNER_TEXT: Partial<Record<Locale, InformalText>> = {
  de: {
    your_answers: "Deine Antworten: {title}",
    copy_intro: "Danke! Hier ist eine Kopie deiner Antworten auf {title}.",
    resume_intro:
      "Deine bisherigen Antworten auf {title} sind gespeichert. Mit diesem Link machst du dort weiter, wo du aufgehört hast, auf jedem Gerät.",
  },
  fr: {
    your_answers: "Tes réponses : {title}",
    copy_intro: "Merci ! Voici une copie de tes réponses à {title}.",
    resume_intro:
      "Tes réponses à {title} sont enregistrées. Ce lien te permet de les reprendre sur n’importe quel appareil.",
  },
  pt: {
    your_answers: "As tuas respostas: {title}",
    copy_intro: "Obrigado! Esta é uma cópia das tuas respostas a {title}.",
    resume_intro:
      "As tuas respostas a {title} estão guardadas. Com esta ligação continuas onde paraste, em qualquer dispositivo.",
  },
};
