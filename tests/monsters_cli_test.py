"""End-to-end tests of the monsters kernel: configs/monsters_sweep.yaml and
configs/monsters_ga.yaml run (shrunk with --set) on 1, 2 and 3 ranks with identical result
datasets; the sweep's records checked against what every task must satisfy and against the
behaviour the document intends; species files the kernel refuses reported as config errors
naming the file and line.

Run by CTest with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in the environment.
"""

import math
import os
import unittest

import h5py
import numpy as np

from cli_support import TempDirTest, levelforge

CONFIGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "configs")
SWEEP = os.path.join(CONFIGS, "monsters_sweep.yaml")
GA = os.path.join(CONFIGS, "monsters_ga.yaml")

SMALL_SWEEP = ["--set", "params.worlds=12", "--set", "params.turns=60"]
SMALL_GA = ["--set", "params.worlds=8", "--set", "params.turns=40",
            "--set", "params.validation_worlds=20", "--set", "ga.population=6",
            "--set", "ga.generations=2", "--set", "ga.keep_best=2"]
MOTIVES = ["fear", "aggression", "desire", "misc", "wander", "none"]


class Determinism(TempDirTest):
    def test_sweep_on_1_2_3_ranks(self):
        self.assert_same_on_ranks(SWEEP, SMALL_SWEEP + ["--set", "sweep.grid.params.group_size=[2]"])

    def test_ga_on_1_2_3_ranks(self):
        self.assert_same_on_ranks(GA, SMALL_GA)


class Experiments(TempDirTest):
    def test_sweep_records(self):
        out = self.run_to(SWEEP, ["--set", "params.worlds=60", "--set", "params.turns=100"],
                          None, "sweep.h5")
        with h5py.File(out, "r") as f:
            points = f["points"][()]
            records = f["sweep/records"][()]
        self.assertEqual(len(points), 36)
        self.assertEqual(sorted(set(points["params.monster"])), [b"goblin", b"orc"])
        self.assertTrue(np.all(records["worlds"] == 60))
        self.assertTrue(np.all((records["p_survive"] >= 0) & (records["p_survive"] <= 1)))
        shares = np.stack([records[f"share_{m}"] for m in MOTIVES], axis=1)
        self.assertTrue(np.allclose(shares.sum(axis=1), 1))
        self.assertTrue(np.all(records["turns_mean"] <= 100))
        # A hero who survives lives all 100 turns: the mean is at least 100 p.
        self.assertTrue(np.all(records["turns_mean"] >= 100 * records["p_survive"] - 1e-9))
        fear = points["params.fear"]
        self.assertTrue(np.all(records["flee_mean"][fear == 0] == 0))
        self.assertTrue(np.all(records["share_fear"][fear == 0] == 0))
        # The intended behaviour, per species and aggression: fear 8 against fear 0 in groups
        # of 6 makes more flee events and more surviving heroes.
        for monster in (b"goblin", b"orc"):
            for aggression in (1, 5):
                row = {}
                for fear_value in (0, 8):
                    pick = ((points["params.monster"] == monster)
                            & (points["params.aggression"] == aggression)
                            & (points["params.group_size"] == 6) & (fear == fear_value))
                    row[fear_value] = records[pick][0]
                self.assertGreater(row[8]["flee_mean"], row[0]["flee_mean"])
                self.assertGreaterEqual(row[8]["p_survive"], row[0]["p_survive"],
                                        (monster, aggression))
                # Buddies add strength: a monster in sight of an enemy attacks more often in
                # a group of 6 than alone.
                for fear_value in (0, 8):
                    alone, pack = (records[(points["params.monster"] == monster)
                                           & (points["params.aggression"] == aggression)
                                           & (fear == fear_value)
                                           & (points["params.group_size"] == size)][0]
                                   for size in (1, 6))
                    self.assertGreater(pack["aggression_in_sight"], alone["aggression_in_sight"],
                                       (monster, aggression, fear_value))

    def test_species_contents_are_in_the_provenance(self):
        out = self.run_to(SWEEP, SMALL_SWEEP + ["--set", "sweep.grid.params.monster=[orc]",
                                                "--set", "sweep.grid.params.fear=[0]"],
                          None, "provenance.h5")
        with h5py.File(out, "r") as f:
            text = "\n".join(str(v) for v in f.attrs.values())
        self.assertIn("skeleton", text)
        self.assertNotIn("species/goblin.yaml", text)

    def test_ga_genomes_and_validation(self):
        out = self.run_to(GA, SMALL_GA, None, "ga.h5")
        with h5py.File(out, "r") as f:
            genomes = f["ga/best_genomes"][()]
            best = f["ga/best"][()]
            validation = f["ga/validation"][()]
            points = f["points"][()]
        self.assertEqual(genomes.shape, (3, 2, 6))
        self.assertEqual(genomes.dtype, np.float64)  # a real genome; the GA keeps it whole
        self.assertTrue(np.all(genomes == np.round(genomes)))
        self.assertTrue(np.all((genomes >= 0) & (genomes <= 20)))
        self.assertTrue(np.all(genomes[:, :, 5] >= 1))
        targets = points["params.target"]
        for task in range(3):
            for row in best[task]:
                self.assertTrue(math.isclose(row["fitness"], 1 - abs(targets[task] - row["p_survive"])))
        self.assertEqual(validation.shape, (3, 2))
        self.assertTrue(np.all((validation["validated_p_survive"] >= 0)
                               & (validation["validated_p_survive"] <= 1)))


class BadSpecies(TempDirTest):
    CONFIG = """\
        experiment: bad
        kernel: monsters
        driver: sweep
        params:
          species: [goblins.yaml]
          monster: goblin
        """

    def refused(self, species, config=None):
        self.write(species, "goblins.yaml")
        path = self.write(config or self.CONFIG, "bad.yaml")
        result = levelforge("validate", path)
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        return result.stderr

    def test_unknown_key_names_the_species_file_line(self):
        message = self.refused("name: goblin\nstrength: 2\nagression: 3\n")
        self.assertIn(f"{self.path('goblins.yaml')}:3:", message)
        self.assertIn("unknown key 'agression'", message)

    def test_relation_to_an_unknown_species(self):
        message = self.refused("name: goblin\nrelations: {troll: -2}\n")
        self.assertIn(f"{self.path('goblins.yaml')}:2:", message)
        self.assertIn("'troll' is neither the hero nor a species of the catalogue", message)

    def test_unknown_monster(self):
        message = self.refused("name: goblin\n", self.CONFIG.replace("monster: goblin",
                                                                     "monster: goblin+ogre"))
        self.assertIn("species 'ogre' is not in params.species (goblin)", message)

    def test_missing_species_file(self):
        path = self.write(self.CONFIG.replace("goblins.yaml", "gobbos.yaml"), "bad.yaml")
        result = levelforge("validate", path)
        self.assertEqual(result.returncode, 2)
        self.assertIn(f"bad.yaml:5:13: params.species[0]: table file '{self.path('gobbos.yaml')}' "
                      "does not exist", result.stderr)


if __name__ == "__main__":
    unittest.main()
