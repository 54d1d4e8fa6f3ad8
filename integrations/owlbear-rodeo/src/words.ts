// The extension's words, in Melee's three languages (the browser's language picks one).
const WORDS = {
  en: {
    title: "Melee",
    server: "Melee server",
    apiKey: "API key (if the server asks for one)",
    connect: "Connect",
    ruleset: "Ruleset",
    start: "Start the example fight",
    or: "or join a combat you already have",
    combatId: "Combat id",
    gmToken: "GM token",
    paste: "Join this combat",
    players: "Who plays whom",
    nobody: "nobody",
    noPlayers: "No player has joined the room yet.",
    gmView: "Your view as game master",
    waiting: "The game master has not given you a combatant yet.",
    started: "The fight has started.",
    joined: "The combat is now this room's.",
    failed: "Melee said no:",
    unreachable: "Melee cannot be reached at this address.",
  },
  fr: {
    title: "Melee",
    server: "Serveur Melee",
    apiKey: "Clé d'API (si le serveur en demande une)",
    connect: "Se connecter",
    ruleset: "Règles",
    start: "Lancer le combat d'exemple",
    or: "ou rejoindre un combat déjà créé",
    combatId: "Identifiant du combat",
    gmToken: "Jeton du MJ",
    paste: "Rejoindre ce combat",
    players: "Qui joue qui",
    nobody: "personne",
    noPlayers: "Aucun joueur n'a encore rejoint la salle.",
    gmView: "Votre vue de meneur de jeu",
    waiting: "Le meneur de jeu ne vous a pas encore attribué de combattant.",
    started: "Le combat a commencé.",
    joined: "Ce combat est désormais celui de la salle.",
    failed: "Melee a refusé :",
    unreachable: "Melee est injoignable à cette adresse.",
  },
  pt: {
    title: "Melee",
    server: "Servidor do Melee",
    apiKey: "Chave de API (se o servidor pedir)",
    connect: "Conectar",
    ruleset: "Sistema",
    start: "Começar o combate de exemplo",
    or: "ou entrar em um combate que você já tem",
    combatId: "Id do combate",
    gmToken: "Token do mestre",
    paste: "Entrar neste combate",
    players: "Quem joga com quem",
    nobody: "ninguém",
    noPlayers: "Nenhum jogador entrou na sala ainda.",
    gmView: "Sua visão de mestre",
    waiting: "O mestre ainda não te deu um combatente.",
    started: "O combate começou.",
    joined: "Este combate agora é o da sala.",
    failed: "O Melee recusou:",
    unreachable: "Não foi possível falar com o Melee neste endereço.",
  },
} as const;

export type Word = keyof (typeof WORDS)["en"];
export type Lang = keyof typeof WORDS;

export function pickLang(languages: readonly string[]): Lang {
  for (const tag of languages) {
    const base = tag.toLowerCase().split("-")[0];
    if (base === "fr" || base === "pt" || base === "en") return base;
  }
  return "en";
}

export function words(lang: Lang): (word: Word) => string {
  return (word) => WORDS[lang][word];
}
