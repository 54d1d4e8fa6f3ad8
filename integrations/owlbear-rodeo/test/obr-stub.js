// The Owlbear Rodeo host, stubbed: the one file that stands in for @owlbear-rodeo/sdk in the
// browser test (`node build.mjs --stub` bundles it in the SDK's place). Only what src/ uses:
// OBR.onReady, player.getRole/getId/getName/id, party.getPlayers/onChange,
// room.getMetadata/setMetadata/onMetadataChange, notification.show.
//
// Who this page is: the URL's query, ?obr-player=<id>&obr-role=GM|PLAYER&obr-name=<name>.
// The party and the room live in the page origin's localStorage, so every page of one browser
// context is in the same room, as OBR's players are:
//   localStorage["obr-stub/party"]  the players (OBR's Player objects, JSON), set by the test;
//   localStorage["obr-stub/room"]   the room's metadata (JSON). setMetadata merges its keys, as
//     OBR does, and every page's onMetadataChange hears it (the storage event for the others).
const query = new URLSearchParams(location.search);
const me = {
  id: query.get("obr-player") ?? "player",
  role: query.get("obr-role") === "GM" ? "GM" : "PLAYER",
  name: query.get("obr-name") ?? "Player",
};
const read = (key, fallback) => JSON.parse(localStorage.getItem(key) ?? "null") ?? fallback;
const roomListeners = new Set();
const partyListeners = new Set();
const others = () => read("obr-stub/party", []).filter((player) => player.id !== me.id);

window.addEventListener("storage", (event) => {
  if (event.key === "obr-stub/room") for (const listener of roomListeners) listener(read("obr-stub/room", {}));
  if (event.key === "obr-stub/party") for (const listener of partyListeners) listener(others());
});

const subscribe = (listeners) => (callback) => {
  listeners.add(callback);
  return () => listeners.delete(callback);
};

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
  },
  party: {
    getPlayers: async () => others(),
    onChange: subscribe(partyListeners),
  },
  room: {
    id: "stub-room",
    getMetadata: async () => read("obr-stub/room", {}),
    async setMetadata(update) {
      const metadata = { ...read("obr-stub/room", {}), ...update };
      localStorage.setItem("obr-stub/room", JSON.stringify(metadata));
      for (const listener of roomListeners) listener(metadata);
    },
    onMetadataChange: subscribe(roomListeners),
  },
  notification: {
    show: async (message) => console.log(`[OBR notification] ${message}`),
  },
};

export default OBR;
