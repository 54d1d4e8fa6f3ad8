// The Owlbear Rodeo host, stubbed: the one file that stands in for @owlbear-rodeo/sdk in the
// browser test (`node build.mjs --stub` bundles it in the SDK's place). Only what src/ uses:
// OBR.onReady, player (getRole/getId/getName/getSelection/getMetadata/setMetadata), party
// (getPlayers/onChange), room (getMetadata/setMetadata/onMetadataChange), scene (isReady,
// onReadyChange, items: getItems/updateItems/addItems/deleteItems/onChange), notification.show, buildLabel.
//
// Who this page is: the URL's query, ?obr-player=<id>&obr-role=GM|PLAYER&obr-name=<name>.
// The party, the room and the scene live in the page origin's localStorage, so every page of one
// browser context is in the same room, as OBR's players are. Each value has one writer (pages of
// one browser may see each other's writes late: no page reads, changes and writes back another's):
//   "obr-stub/party"                the players (OBR's Player objects, JSON, the GM too), set by the test;
//   "obr-stub/player/<id>"          that player's metadata (their setMetadata merges into it);
//   "obr-stub/room/<key>"           one key of the room's metadata (setMetadata writes the keys it is given);
//   "obr-stub/scene"                the scene's items (OBR's Item objects), set by the test, then written
//                                   by the GM's pages only;
//   "obr-stub/selection/<id>"       the items that player has selected, set by the test.
// Every change is heard by this page's listeners, and by the other pages' through the storage event.
const query = new URLSearchParams(location.search);
const me = {
  id: query.get("obr-player") ?? "player",
  role: query.get("obr-role") === "GM" ? "GM" : "PLAYER",
  name: query.get("obr-name") ?? "Player",
};
const read = (key, fallback) => JSON.parse(localStorage.getItem(key) ?? "null") ?? fallback;
const withPrefix = (prefix) => Object.keys(localStorage).filter((key) => key.startsWith(prefix));
const views = {
  room: () => Object.fromEntries(withPrefix("obr-stub/room/").map((key) => [key.slice("obr-stub/room/".length), read(key, null)])),
  party: () => read("obr-stub/party", [])
    .filter((player) => player.id !== me.id)
    .map((player) => ({ ...player, metadata: read(`obr-stub/player/${player.id}`, {}) })),
  scene: () => read("obr-stub/scene", []),
};
const listeners = { room: new Set(), party: new Set(), scene: new Set() };
const topic = (key) => (key?.startsWith("obr-stub/room/") ? "room" : key === "obr-stub/party" || key?.startsWith("obr-stub/player/") ? "party" : key === "obr-stub/scene" ? "scene" : null);
const tell = (name) => {
  for (const listener of listeners[name]) listener(views[name]());
};
const write = (key, value) => {
  localStorage.setItem(key, JSON.stringify(value));
  tell(topic(key));
};
window.addEventListener("storage", (event) => {
  const name = topic(event.key);
  if (name) tell(name);
});
const subscribe = (name) => (callback) => {
  listeners[name].add(callback);
  return () => listeners[name].delete(callback);
};
const matching = (filter) => (item) => (Array.isArray(filter) ? filter.includes(item.id) : filter ? filter(item) : true);

let counter = 0;
/** OBR's LabelBuilder, only the calls src/ makes. */
export function buildLabel() {
  const item = {
    id: `label-${me.id}-${Date.now()}-${(counter += 1)}`, type: "LABEL", name: "Label", visible: true, locked: false,
    createdUserId: me.id, zIndex: 0, lastModified: new Date().toISOString(), lastModifiedUserId: me.id,
    position: { x: 0, y: 0 }, rotation: 0, scale: { x: 1, y: 1 }, metadata: {}, layer: "TEXT",
    text: { plainText: "", richText: [], type: "PLAIN", width: "AUTO", height: "AUTO", style: {} }, style: {},
  };
  const builder = {
    plainText: (text) => ((item.text.plainText = text), builder),
    pointerDirection: (direction) => ((item.style.pointerDirection = direction), builder),
    build: () => structuredClone(item),
  };
  for (const field of ["attachedTo", "position", "layer", "locked", "disableHit", "metadata", "name"]) {
    builder[field] = (value) => ((item[field] = value), builder);
  }
  return builder;
}

const OBR = {
  isAvailable: true,
  isReady: true,
  onReady(callback) {
    setTimeout(callback, 0);
  },
  player: {
    get id() {
      return me.id;
    },
    getId: async () => me.id,
    getRole: async () => me.role,
    getName: async () => me.name,
    getSelection: async () => read(`obr-stub/selection/${me.id}`, undefined),
    getMetadata: async () => read(`obr-stub/player/${me.id}`, {}),
    setMetadata: async (update) => write(`obr-stub/player/${me.id}`, { ...read(`obr-stub/player/${me.id}`, {}), ...update }),
  },
  party: {
    getPlayers: async () => views.party(),
    onChange: subscribe("party"),
  },
  room: {
    id: "stub-room",
    getMetadata: async () => views.room(),
    async setMetadata(update) {
      for (const [key, value] of Object.entries(update)) localStorage.setItem(`obr-stub/room/${key}`, JSON.stringify(value));
      tell("room");
    },
    onMetadataChange: subscribe("room"),
  },
  scene: {
    isReady: async () => true,
    onReadyChange: () => () => {},
    items: {
      getItems: async (filter) => views.scene().filter(matching(filter)),
      async updateItems(filterOrItems, update) {
        const items = views.scene();
        const ids = Array.isArray(filterOrItems) && typeof filterOrItems[0] === "object" ? filterOrItems.map((i) => i.id) : filterOrItems;
        const drafts = items.filter(matching(ids));
        update(drafts); // the drafts are the stored items themselves: what the update changes is kept
        write("obr-stub/scene", items);
      },
      addItems: async (added) => write("obr-stub/scene", [...views.scene(), ...added]),
      deleteItems: async (ids) => write("obr-stub/scene", views.scene().filter((item) => !ids.includes(item.id))),
      onChange: subscribe("scene"),
    },
  },
  notification: {
    show: async (message) => console.log(`[OBR notification] ${message}`),
  },
};

export default OBR;
