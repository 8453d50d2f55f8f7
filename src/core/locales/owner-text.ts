// Email text in the form's language (SPEC §21): the owner's notifications and the respondent's
// copy. Data, one row per locale; `{name}` placeholders are filled with `fill` (index.ts). The
// respondent's lines come in a formal and, where the language has one, an informal variant
// (`settings.formality`); es, it, nl and pl speak to the respondent informally throughout, as
// their pages do.
import type { Locale } from "./codes.ts";
import { INFORMAL_OWNER_TEXT } from "./owner-text-informal.ts";

export interface OwnerText {
  new_response: string;
  view_response: string;
  see_report: string;
  view_it: string;
  report: string;
  reached: string;
  has: string;
  has_target: string;
  response_one: string;
  response_other: string;
  footer: string;
  /** To the respondent: subject and first line, formal. */
  your_answers: string;
  copy_intro: string;
  copy_footer: string;
  /** To the respondent of a partial response (SPEC §25): the resume link's subject, line, button. */
  resume_subject: string;
  resume_intro: string;
  resume_button: string;
}

/** The respondent's lines in the informal register (du, tu, tu) where the default is formal. */
export type InformalText = Pick<OwnerText, "your_answers" | "copy_intro" | "resume_intro">;

export const OWNER_TEXT: Record<Locale, OwnerText> = {
  en: {
    new_response: "New response to {title}",
    view_response: "View the response",
    see_report: "See the report",
    view_it: "View it",
    report: "Report",
    reached: "{title} reached {count}",
    has: "{title} has {count}.",
    has_target: "{title} has {count} of your target of {target}.",
    response_one: "{n} response",
    response_other: "{n} responses",
    footer: "Sent by Formdown. The links open without signing in and expire after 30 days.",
    your_answers: "Your answers to {title}",
    copy_intro: "Thank you. This is a copy of your answers to {title}.",
    copy_footer: "Sent by Formdown for the owner of this form.",
    resume_subject: "Continue: {title}",
    resume_intro:
      "Your answers so far to {title} are saved. This link continues where you left off, on any device.",
    resume_button: "Continue",
  },
  de: {
    new_response: "Neue Antwort auf {title}",
    view_response: "Antwort ansehen",
    see_report: "Bericht ansehen",
    view_it: "Ansehen",
    report: "Bericht",
    reached: "{title} hat {count} erreicht",
    has: "{title} hat {count}.",
    has_target: "{title} hat {count} von Ihrem Ziel {target}.",
    response_one: "{n} Antwort",
    response_other: "{n} Antworten",
    footer:
      "Gesendet von Formdown. Die Links öffnen sich ohne Anmeldung und laufen nach 30 Tagen ab.",
    your_answers: "Ihre Antworten: {title}",
    copy_intro: "Vielen Dank. Dies ist eine Kopie Ihrer Antworten auf {title}.",
    copy_footer: "Gesendet von Formdown im Auftrag der Person, der dieses Formular gehört.",
    resume_subject: "Weiter ausfüllen: {title}",
    resume_intro:
      "Ihre bisherigen Antworten auf {title} sind gespeichert. Mit diesem Link machen Sie dort weiter, wo Sie aufgehört haben, auf jedem Gerät.",
    resume_button: "Weiter ausfüllen",
  },
  fr: {
    new_response: "Nouvelle réponse à {title}",
    view_response: "Voir la réponse",
    see_report: "Voir le rapport",
    view_it: "Voir",
    report: "Rapport",
    reached: "{title} a atteint {count}",
    has: "{title} a {count}.",
    has_target: "{title} a {count} sur votre objectif de {target}.",
    response_one: "{n} réponse",
    response_other: "{n} réponses",
    footer:
      "Envoyé par Formdown. Les liens s’ouvrent sans connexion et expirent au bout de 30 jours.",
    your_answers: "Vos réponses : {title}",
    copy_intro: "Merci. Voici une copie de vos réponses à {title}.",
    copy_footer: "Envoyé par Formdown pour le propriétaire de ce formulaire.",
    resume_subject: "Reprendre : {title}",
    resume_intro:
      "Vos réponses à {title} sont enregistrées. Ce lien vous permet de les reprendre sur n’importe quel appareil.",
    resume_button: "Reprendre",
  },
  es: {
    new_response: "Nueva respuesta a {title}",
    view_response: "Ver la respuesta",
    see_report: "Ver el informe",
    view_it: "Verla",
    report: "Informe",
    reached: "{title} ha llegado a {count}",
    has: "{title} tiene {count}.",
    has_target: "{title} tiene {count} de su objetivo de {target}.",
    response_one: "{n} respuesta",
    response_other: "{n} respuestas",
    footer:
      "Enviado por Formdown. Los enlaces se abren sin iniciar sesión y caducan a los 30 días.",
    your_answers: "Tus respuestas: {title}",
    copy_intro: "Gracias. Esta es una copia de tus respuestas a {title}.",
    copy_footer: "Enviado por Formdown en nombre del propietario de este formulario.",
    resume_subject: "Continuar: {title}",
    resume_intro:
      "Tus respuestas a {title} están guardadas. Con este enlace sigues donde lo dejaste, en cualquier dispositivo.",
    resume_button: "Continuar",
  },
  it: {
    new_response: "Nuova risposta a {title}",
    view_response: "Vedi la risposta",
    see_report: "Vedi il rapporto",
    view_it: "Vedi",
    report: "Rapporto",
    reached: "{title} ha raggiunto {count}",
    has: "{title} ha {count}.",
    has_target: "{title} ha {count} del suo obiettivo di {target}.",
    response_one: "{n} risposta",
    response_other: "{n} risposte",
    footer: "Inviato da Formdown. I link si aprono senza accesso e scadono dopo 30 giorni.",
    your_answers: "Le tue risposte: {title}",
    copy_intro: "Grazie. Ecco una copia delle tue risposte a {title}.",
    copy_footer: "Inviato da Formdown per conto del proprietario di questo modulo.",
    resume_subject: "Continua: {title}",
    resume_intro:
      "Le tue risposte a {title} sono salvate. Con questo link riprendi da dove avevi lasciato, su qualsiasi dispositivo.",
    resume_button: "Continua",
  },
  pt: {
    new_response: "Nova resposta a {title}",
    view_response: "Ver a resposta",
    see_report: "Ver o relatório",
    view_it: "Ver",
    report: "Relatório",
    reached: "{title} chegou a {count}",
    has: "{title} tem {count}.",
    has_target: "{title} tem {count} da sua meta de {target}.",
    response_one: "{n} resposta",
    response_other: "{n} respostas",
    footer: "Enviado pelo Formdown. Os links abrem sem login e expiram após 30 dias.",
    your_answers: "As suas respostas: {title}",
    copy_intro: "Obrigado. Esta é uma cópia das suas respostas a {title}.",
    copy_footer: "Enviado pelo Formdown em nome do proprietário deste formulário.",
    resume_subject: "Continuar: {title}",
    resume_intro:
      "As suas respostas a {title} estão guardadas. Com esta ligação continua onde parou, em qualquer dispositivo.",
    resume_button: "Continuar",
  },
  nl: {
    new_response: "Nieuw antwoord op {title}",
    view_response: "Antwoord bekijken",
    see_report: "Rapport bekijken",
    view_it: "Bekijken",
    report: "Rapport",
    reached: "{title} heeft {count} bereikt",
    has: "{title} heeft {count}.",
    has_target: "{title} heeft {count} van uw doel van {target}.",
    response_one: "{n} antwoord",
    response_other: "{n} antwoorden",
    footer: "Verzonden door Formdown. De links openen zonder inloggen en verlopen na 30 dagen.",
    your_answers: "Je antwoorden: {title}",
    copy_intro: "Bedankt. Dit is een kopie van je antwoorden op {title}.",
    copy_footer: "Verzonden door Formdown namens de eigenaar van dit formulier.",
    resume_subject: "Verdergaan: {title}",
    resume_intro:
      "Je antwoorden op {title} zijn bewaard. Met deze link ga je verder waar je gebleven was, op elk apparaat.",
    resume_button: "Verdergaan",
  },
  pl: {
    new_response: "Nowa odpowiedź: {title}",
    view_response: "Zobacz odpowiedź",
    see_report: "Zobacz raport",
    view_it: "Zobacz",
    report: "Raport",
    reached: "{title}: osiągnięto {count}",
    has: "{title}: {count}.",
    has_target: "{title}: {count} z Twojego celu {target}.",
    response_one: "{n} odpowiedź",
    response_other: "{n} odpowiedzi",
    footer: "Wysłane przez Formdown. Linki otwierają się bez logowania i wygasają po 30 dniach.",
    your_answers: "Twoje odpowiedzi: {title}",
    copy_intro: "Dziękujemy. Oto kopia Twoich odpowiedzi: {title}.",
    copy_footer: "Wysłane przez Formdown w imieniu właściciela tego formularza.",
    resume_subject: "Kontynuuj: {title}",
    resume_intro:
      "Twoje dotychczasowe odpowiedzi ({title}) są zapisane. Ten link pozwala kontynuować od miejsca przerwania, na dowolnym urządzeniu.",
    resume_button: "Kontynuuj",
  },
  ja: {
    new_response: "{title} に新しい回答",
    view_response: "回答を見る",
    see_report: "レポートを見る",
    view_it: "見る",
    report: "レポート",
    reached: "{title} が {count} に達しました",
    has: "{title}：{count}。",
    has_target: "{title}：目標 {target} のうち {count}。",
    response_one: "{n} 件の回答",
    response_other: "{n} 件の回答",
    footer: "Formdown から送信。リンクはサインインなしで開き、30 日後に失効します。",
    your_answers: "{title} へのご回答",
    copy_intro: "ありがとうございました。{title} へのご回答の控えです。",
    copy_footer: "このフォームの所有者に代わって Formdown から送信しました。",
    resume_subject: "{title} の続き",
    resume_intro:
      "{title} へのこれまでのご回答は保存されています。このリンクから、どの端末でも続きを回答できます。",
    resume_button: "続きを回答する",
  },
  zh: {
    new_response: "{title} 收到新回复",
    view_response: "查看回复",
    see_report: "查看报告",
    view_it: "查看",
    report: "报告",
    reached: "{title} 已达到 {count}",
    has: "{title}：{count}。",
    has_target: "{title}：{count}，目标 {target}。",
    response_one: "{n} 条回复",
    response_other: "{n} 条回复",
    footer: "由 Formdown 发送。链接无需登录即可打开，30 天后失效。",
    your_answers: "您对 {title} 的回答",
    copy_intro: "谢谢。这是您对 {title} 的回答副本。",
    copy_footer: "由 Formdown 代表此表单的所有者发送。",
    resume_subject: "继续填写：{title}",
    resume_intro: "您对 {title} 的回答已保存。通过此链接，可在任何设备上从中断处继续。",
    resume_button: "继续填写",
  },
  ar: {
    new_response: "رد جديد على {title}",
    view_response: "عرض الرد",
    see_report: "عرض التقرير",
    view_it: "عرض",
    report: "التقرير",
    reached: "وصل {title} إلى {count}",
    has: "{title}: {count}.",
    has_target: "{title}: {count} من هدفك البالغ {target}.",
    response_one: "{n} رد",
    response_other: "{n} ردود",
    footer: "أُرسلت بواسطة Formdown. تُفتح الروابط دون تسجيل الدخول وتنتهي بعد 30 يومًا.",
    your_answers: "إجاباتك على {title}",
    copy_intro: "شكرًا لك. هذه نسخة من إجاباتك على {title}.",
    copy_footer: "أُرسلت بواسطة Formdown نيابة عن مالك هذا النموذج.",
    resume_subject: "أكمل: {title}",
    resume_intro:
      "تم حفظ إجاباتك على {title}. يتيح لك هذا الرابط المتابعة من حيث توقفت، على أي جهاز.",
    resume_button: "متابعة",
  },
  he: {
    new_response: "תשובה חדשה ל־{title}",
    view_response: "הצגת התשובה",
    see_report: "הצגת הדוח",
    view_it: "הצגה",
    report: "דוח",
    reached: "{title} הגיע ל־{count}",
    has: "{title}: {count}.",
    has_target: "{title}: {count} מתוך היעד של {target}.",
    response_one: "תשובה אחת",
    response_other: "{n} תשובות",
    footer: "נשלח על ידי Formdown. הקישורים נפתחים ללא התחברות ופגים אחרי 30 יום.",
    your_answers: "התשובות שלך ל־{title}",
    copy_intro: "תודה. זה עותק של התשובות שלך ל־{title}.",
    copy_footer: "נשלח על ידי Formdown בשם הבעלים של הטופס.",
    resume_subject: "המשך מילוי: {title}",
    resume_intro: "התשובות שלך ל־{title} נשמרו. הקישור הזה ממשיך מהמקום שבו עצרת, בכל מכשיר.",
    resume_button: "המשך",
  },
};

/** The email text of a form's locale and formality (English for a locale it does not know). */
export function ownerText(locale: string, formality?: "formal" | "informal"): OwnerText {
  const base = (OWNER_TEXT as Record<string, OwnerText>)[locale] ?? OWNER_TEXT.en;
  const informal = formality === "informal" ? INFORMAL_OWNER_TEXT[locale as Locale] : undefined;
  return informal ? { ...base, ...informal } : base;
}
